// Imported for its effect, before anything reads configuration (see embedded-defaults.ts).
import { applyEmbeddedDefaults } from "./embedded-defaults";

applyEmbeddedDefaults();
