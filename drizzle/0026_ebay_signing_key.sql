ALTER TYPE "public"."config_param_key" ADD VALUE 'EBAY_SIGNING_KEY';--> statement-breakpoint
ALTER TYPE "public"."config_param_key" ADD VALUE 'SANDBOX_EBAY_SIGNING_KEYS';