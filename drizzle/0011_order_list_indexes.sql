DROP INDEX "order_user_idx";--> statement-breakpoint
DROP INDEX "order_status_idx";--> statement-breakpoint
DROP INDEX "order_item_product_idx";--> statement-breakpoint
CREATE INDEX "order_user_created_idx" ON "order" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "order_status_created_idx" ON "order" USING btree ("status","created_at","id");--> statement-breakpoint
CREATE INDEX "order_created_idx" ON "order" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "order_number_pattern_idx" ON "order" USING btree ("order_number" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "order_address_email_pattern_idx" ON "order_address" USING btree (lower("email") text_pattern_ops,"email","order_id");--> statement-breakpoint
CREATE INDEX "order_address_last_name_pattern_idx" ON "order_address" USING btree (lower("last_name") text_pattern_ops,"last_name","order_id");--> statement-breakpoint
CREATE INDEX "order_address_first_name_pattern_idx" ON "order_address" USING btree (lower("first_name") text_pattern_ops,"first_name","order_id");--> statement-breakpoint
CREATE INDEX "order_detail_shop_carrier_method_idx" ON "order_detail" USING btree ("shop","carrier","shipping_method","order_id");--> statement-breakpoint
CREATE INDEX "order_item_product_order_idx" ON "order_item" USING btree ("product_id","order_id");--> statement-breakpoint
CREATE INDEX "payment_detail_total_idx" ON "payment_detail" USING btree ("total","order_id");--> statement-breakpoint
-- The planner learns how shop, carrier and shipping method go together (an eBay parcel by UPS is rare), so the order
-- list's filters pick the index above instead of walking every order by date.
CREATE STATISTICS IF NOT EXISTS "order_detail_shop_carrier_method_stats" (mcv) ON "shop", "carrier", "shipping_method" FROM "order_detail";
