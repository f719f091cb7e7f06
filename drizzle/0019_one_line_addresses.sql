-- hand-written (SECURITY-REVIEW N-M5): every field of an address is one line from now on (src/lib/text.ts, lineText).
-- Addresses stored before, in orders and in address books, get each run of line breaks, tabs, other control
-- characters, line or paragraph separators and bidi embeddings, overrides and isolates replaced by one space, as
-- documents and carriers are given them anyway (oneLine). Otherwise a customer or member of staff editing such an
-- address would be refused for a character they cannot see, and every other reader (the order pages, the CSV export)
-- would still get the line breaks. Each address changed is logged with what it was.
CREATE FUNCTION pg_temp.one_line(value text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT btrim(regexp_replace(value, '[\u0001-\u001F\u007F-\u009F\u2028\u2029\u202A-\u202E\u2066-\u2069]+', ' ', 'g'))
$$;--> statement-breakpoint
CREATE FUNCTION pg_temp.not_one_line(value text) RETURNS boolean LANGUAGE sql IMMUTABLE AS $$
  SELECT coalesce(value ~ '[\u0001-\u001F\u007F-\u009F\u2028\u2029\u202A-\u202E\u2066-\u2069]', false)
$$;--> statement-breakpoint
INSERT INTO "logbook" ("event_type", "entity_type", "entity_id", "previous_state", "new_state", "description")
SELECT 'ADDRESS', 'ORDER', a."order_id"::text,
  jsonb_build_object('firstName', a."first_name", 'lastName', a."last_name", 'companyName', a."company_name", 'street', a."street", 'houseNumber', a."house_number", 'addressLine2', a."address_line2", 'postCode', a."post_code", 'city', a."city", 'state', a."state", 'phoneNumber', a."phone_number", 'referenceLine', a."reference_line"),
  jsonb_build_object('firstName', pg_temp.one_line(a."first_name"), 'lastName', pg_temp.one_line(a."last_name"), 'companyName', pg_temp.one_line(a."company_name"), 'street', pg_temp.one_line(a."street"), 'houseNumber', pg_temp.one_line(a."house_number"), 'addressLine2', pg_temp.one_line(a."address_line2"), 'postCode', pg_temp.one_line(a."post_code"), 'city', pg_temp.one_line(a."city"), 'state', pg_temp.one_line(a."state"), 'phoneNumber', pg_temp.one_line(a."phone_number"), 'referenceLine', pg_temp.one_line(a."reference_line")),
  'The address of order ' || o."order_number" || ' put on one line per field: line breaks and control characters replaced by spaces'
FROM "order_address" a JOIN "order" o ON o."id" = a."order_id"
WHERE pg_temp.not_one_line(a."first_name") OR pg_temp.not_one_line(a."last_name") OR pg_temp.not_one_line(a."company_name") OR pg_temp.not_one_line(a."street")
  OR pg_temp.not_one_line(a."house_number") OR pg_temp.not_one_line(a."address_line2") OR pg_temp.not_one_line(a."post_code") OR pg_temp.not_one_line(a."city")
  OR pg_temp.not_one_line(a."state") OR pg_temp.not_one_line(a."phone_number") OR pg_temp.not_one_line(a."reference_line");--> statement-breakpoint
UPDATE "order_address" SET
  "first_name" = pg_temp.one_line("first_name"), "last_name" = pg_temp.one_line("last_name"), "company_name" = pg_temp.one_line("company_name"),
  "street" = pg_temp.one_line("street"), "house_number" = pg_temp.one_line("house_number"), "address_line2" = pg_temp.one_line("address_line2"),
  "post_code" = pg_temp.one_line("post_code"), "city" = pg_temp.one_line("city"), "state" = pg_temp.one_line("state"),
  "phone_number" = pg_temp.one_line("phone_number"), "reference_line" = pg_temp.one_line("reference_line")
WHERE pg_temp.not_one_line("first_name") OR pg_temp.not_one_line("last_name") OR pg_temp.not_one_line("company_name") OR pg_temp.not_one_line("street")
  OR pg_temp.not_one_line("house_number") OR pg_temp.not_one_line("address_line2") OR pg_temp.not_one_line("post_code") OR pg_temp.not_one_line("city")
  OR pg_temp.not_one_line("state") OR pg_temp.not_one_line("phone_number") OR pg_temp.not_one_line("reference_line");--> statement-breakpoint
INSERT INTO "logbook" ("event_type", "entity_type", "entity_id", "previous_state", "new_state", "description")
SELECT 'ADDRESS', 'ADDRESS_BOOK', a."id"::text,
  jsonb_build_object('firstName', a."first_name", 'lastName', a."last_name", 'companyName', a."company_name", 'street', a."street", 'houseNumber', a."house_number", 'addressLine2', a."address_line2", 'postCode', a."post_code", 'city', a."city", 'state', a."state", 'phoneNumber', a."phone_number"),
  jsonb_build_object('firstName', pg_temp.one_line(a."first_name"), 'lastName', pg_temp.one_line(a."last_name"), 'companyName', pg_temp.one_line(a."company_name"), 'street', pg_temp.one_line(a."street"), 'houseNumber', pg_temp.one_line(a."house_number"), 'addressLine2', pg_temp.one_line(a."address_line2"), 'postCode', pg_temp.one_line(a."post_code"), 'city', pg_temp.one_line(a."city"), 'state', pg_temp.one_line(a."state"), 'phoneNumber', pg_temp.one_line(a."phone_number")),
  'An address in the address book of ' || a."user_id" || ' put on one line per field: line breaks and control characters replaced by spaces'
FROM "address_book" a
WHERE pg_temp.not_one_line(a."first_name") OR pg_temp.not_one_line(a."last_name") OR pg_temp.not_one_line(a."company_name") OR pg_temp.not_one_line(a."street")
  OR pg_temp.not_one_line(a."house_number") OR pg_temp.not_one_line(a."address_line2") OR pg_temp.not_one_line(a."post_code") OR pg_temp.not_one_line(a."city")
  OR pg_temp.not_one_line(a."state") OR pg_temp.not_one_line(a."phone_number");--> statement-breakpoint
UPDATE "address_book" SET
  "first_name" = pg_temp.one_line("first_name"), "last_name" = pg_temp.one_line("last_name"), "company_name" = pg_temp.one_line("company_name"),
  "street" = pg_temp.one_line("street"), "house_number" = pg_temp.one_line("house_number"), "address_line2" = pg_temp.one_line("address_line2"),
  "post_code" = pg_temp.one_line("post_code"), "city" = pg_temp.one_line("city"), "state" = pg_temp.one_line("state"),
  "phone_number" = pg_temp.one_line("phone_number")
WHERE pg_temp.not_one_line("first_name") OR pg_temp.not_one_line("last_name") OR pg_temp.not_one_line("company_name") OR pg_temp.not_one_line("street")
  OR pg_temp.not_one_line("house_number") OR pg_temp.not_one_line("address_line2") OR pg_temp.not_one_line("post_code") OR pg_temp.not_one_line("city")
  OR pg_temp.not_one_line("state") OR pg_temp.not_one_line("phone_number");--> statement-breakpoint
DROP FUNCTION pg_temp.one_line(text);--> statement-breakpoint
DROP FUNCTION pg_temp.not_one_line(text);
