DROP INDEX "product_created_at_idx";--> statement-breakpoint
DROP INDEX "product_listing_idx";--> statement-breakpoint
CREATE INDEX "product_created_at_idx" ON "product" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "product_listing_idx" ON "product" USING btree ("ws_status","created_at","id");