/**
 * A number field's text after leaving it, held to the field's min and max (SPEC section 5). Only a number out of
 * range changes: an empty field stays empty and text that is no number stays as typed, so the form's schema can name
 * what is wrong; a comma reads as a decimal point, as the shop's amount schemas read it.
 */
export function clampTyped(typed: string, min: number, max: number): string {
  const text = typed.trim();
  if (text === "") return typed;
  const value = Number(text.replace(",", "."));
  if (Number.isNaN(value)) return typed;
  if (value < min) return String(min);
  if (value > max) return String(max);
  return typed;
}
