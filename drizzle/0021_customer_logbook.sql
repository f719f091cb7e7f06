ALTER TYPE "public"."log_event_type" ADD VALUE 'CUSTOMER';--> statement-breakpoint
CREATE INDEX "logbook_user_created_idx" ON "logbook" USING btree ("user_id","created_at" DESC NULLS LAST);