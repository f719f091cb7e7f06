CREATE TABLE "job_worker" (
	"id" uuid PRIMARY KEY NOT NULL,
	"host" text NOT NULL,
	"pid" integer NOT NULL,
	"beat_seconds" integer NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"beat_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "job_worker_try" (
	"job_id" uuid NOT NULL,
	"retry_count" integer NOT NULL,
	"queue" text NOT NULL,
	"worker_id" uuid NOT NULL,
	"taken_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "job_worker_try_job_id_retry_count_pk" PRIMARY KEY("job_id","retry_count")
);
--> statement-breakpoint
ALTER TABLE "marketplace_bulk_run" ADD COLUMN "in_flight_job_id" text;--> statement-breakpoint
ALTER TABLE "job_worker_try" ADD CONSTRAINT "job_worker_try_worker_id_job_worker_id_fk" FOREIGN KEY ("worker_id") REFERENCES "public"."job_worker"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "job_worker_try_worker_idx" ON "job_worker_try" USING btree ("worker_id");