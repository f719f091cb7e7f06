CREATE TABLE "invoice_counter" (
	"year" integer PRIMARY KEY NOT NULL,
	"last_number" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "order_detail" ADD COLUMN "carrier_product" text;--> statement-breakpoint
ALTER TABLE "order_detail" ADD COLUMN "carrier_shipment_id" text;--> statement-breakpoint
ALTER TABLE "order_detail" ADD COLUMN "label_created_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "order_detail" ADD COLUMN "shipped_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "order_detail" ADD COLUMN "tracking_status" text;--> statement-breakpoint
ALTER TABLE "order_detail" ADD COLUMN "tracking_checked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "order_detail" ADD COLUMN "delivered_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "order_detail" ADD COLUMN "invoice_number" text;--> statement-breakpoint
ALTER TABLE "order_item" ADD COLUMN "price_override_reason" text;--> statement-breakpoint
CREATE UNIQUE INDEX "order_detail_invoice_number_unique" ON "order_detail" USING btree ("invoice_number");