CREATE TYPE "public"."marketplace_end_reason" AS ENUM('STAFF', 'OUT_OF_STOCK', 'MARKETPLACE');--> statement-breakpoint
ALTER TYPE "public"."config_param_key" ADD VALUE 'EBAY_PRICE_MARKUP_PERCENT';--> statement-breakpoint
ALTER TYPE "public"."config_param_key" ADD VALUE 'EBAY_OUT_OF_STOCK';--> statement-breakpoint
ALTER TABLE "product" ADD COLUMN "ebay_price" numeric(12, 2);--> statement-breakpoint
ALTER TABLE "marketplace_offer" ADD COLUMN "end_reason" "marketplace_end_reason";--> statement-breakpoint
ALTER TABLE "marketplace_offer" ADD COLUMN "relist_claimed_at" timestamp with time zone;--> statement-breakpoint
-- hand-written:
-- Until now only staff withdrew listings: the offers withdrawn so far were theirs, and are not relisted by stock.
UPDATE "marketplace_offer" SET "end_reason" = 'STAFF' WHERE "status" = 'WITHDRAWN' AND "end_reason" IS NULL;
