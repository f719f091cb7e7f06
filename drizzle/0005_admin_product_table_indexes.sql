CREATE INDEX "product_name_idx" ON "product" USING btree ("name","id");--> statement-breakpoint
CREATE INDEX "product_stock_idx" ON "product" USING btree ("stock","id");--> statement-breakpoint
CREATE INDEX "product_updated_at_idx" ON "product" USING btree ("updated_at","id");