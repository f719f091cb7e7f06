-- Levenshtein distance for typo-tolerant search (ships with PostgreSQL's contrib and with PGlite).
CREATE EXTENSION IF NOT EXISTS fuzzystrmatch;--> statement-breakpoint
-- Keeps search_term holding every alphabetic word (3+ letters) of every product's search text. A statement-level
-- trigger over the changed rows, so a bulk insert of thousands of products costs one pass, not one per row.
CREATE OR REPLACE FUNCTION search_term_collect() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO search_term (term)
  SELECT DISTINCT lexeme
  FROM changed_products, unnest(tsvector_to_array(to_tsvector('simple', changed_products.search_text))) AS lexeme
  WHERE lexeme ~ '^[[:alpha:]]{3,}$'
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER product_search_terms_insert AFTER INSERT ON product
  REFERENCING NEW TABLE AS changed_products FOR EACH STATEMENT EXECUTE FUNCTION search_term_collect();--> statement-breakpoint
CREATE TRIGGER product_search_terms_update AFTER UPDATE ON product
  REFERENCING NEW TABLE AS changed_products FOR EACH STATEMENT EXECUTE FUNCTION search_term_collect();--> statement-breakpoint
INSERT INTO search_term (term)
SELECT DISTINCT lexeme FROM product, unnest(tsvector_to_array(product.search_vector)) AS lexeme
WHERE lexeme ~ '^[[:alpha:]]{3,}$'
ON CONFLICT DO NOTHING;
