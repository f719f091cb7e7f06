CREATE TABLE "marketplace_category_rules" (
	"tree_id" text NOT NULL,
	"category_id" text NOT NULL,
	"tree_version" text NOT NULL,
	"category_name" text,
	"aspects" jsonb NOT NULL,
	"conditions" jsonb,
	"fetched_at" timestamp with time zone NOT NULL,
	CONSTRAINT "marketplace_category_rules_tree_id_category_id_pk" PRIMARY KEY("tree_id","category_id")
);
--> statement-breakpoint
CREATE TABLE "marketplace_category_tree" (
	"marketplace_id" "marketplace_id" PRIMARY KEY NOT NULL,
	"tree_id" text NOT NULL,
	"tree_version" text NOT NULL,
	"checked_at" timestamp with time zone NOT NULL
);
