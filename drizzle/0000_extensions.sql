-- Trigram matching gives typo-tolerant search; it ships with PostgreSQL's contrib and with PGlite.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
