CREATE INDEX "product_description_classification_idx" ON "product_description" USING btree ("product_id","caliber","state","item_type","gender");--> statement-breakpoint
-- search_term now keeps every word of 3+ characters that does not start with a digit or a sign, not only the
-- words of letters: search spells a typed prefix out as the catalogue words it starts ("crown" as crown | crowns),
-- which is only right when every such word is here ("cal" must find "cal.7750" too). Typo correction still looks
-- at the words of letters only.
CREATE OR REPLACE FUNCTION search_term_collect() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO search_term (term)
  SELECT DISTINCT lexeme
  FROM changed_products, unnest(tsvector_to_array(to_tsvector('simple', changed_products.search_text))) AS lexeme
  WHERE length(lexeme) >= 3 AND lexeme !~ '^[0-9[:punct:]]'
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END
$$;--> statement-breakpoint
INSERT INTO search_term (term)
SELECT DISTINCT lexeme FROM product, unnest(tsvector_to_array(product.search_vector)) AS lexeme
WHERE length(lexeme) >= 3 AND lexeme !~ '^[0-9[:punct:]]'
ON CONFLICT DO NOTHING;
