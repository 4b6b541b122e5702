-- better-auth times become ms since the epoch, as in SQLite: the app queries both stores with one set of table objects (db/pg/store.ts).
ALTER TABLE "auth_accounts" ALTER COLUMN "access_token_expires_at" SET DATA TYPE bigint USING (extract(epoch from "access_token_expires_at") * 1000)::bigint;--> statement-breakpoint
ALTER TABLE "auth_accounts" ALTER COLUMN "refresh_token_expires_at" SET DATA TYPE bigint USING (extract(epoch from "refresh_token_expires_at") * 1000)::bigint;--> statement-breakpoint
ALTER TABLE "auth_accounts" ALTER COLUMN "created_at" SET DATA TYPE bigint USING (extract(epoch from "created_at") * 1000)::bigint;--> statement-breakpoint
ALTER TABLE "auth_accounts" ALTER COLUMN "updated_at" SET DATA TYPE bigint USING (extract(epoch from "updated_at") * 1000)::bigint;--> statement-breakpoint
ALTER TABLE "auth_verifications" ALTER COLUMN "expires_at" SET DATA TYPE bigint USING (extract(epoch from "expires_at") * 1000)::bigint;--> statement-breakpoint
ALTER TABLE "auth_verifications" ALTER COLUMN "created_at" SET DATA TYPE bigint USING (extract(epoch from "created_at") * 1000)::bigint;--> statement-breakpoint
ALTER TABLE "auth_verifications" ALTER COLUMN "updated_at" SET DATA TYPE bigint USING (extract(epoch from "updated_at") * 1000)::bigint;--> statement-breakpoint
ALTER TABLE "sessions" ALTER COLUMN "expires_at" SET DATA TYPE bigint USING (extract(epoch from "expires_at") * 1000)::bigint;--> statement-breakpoint
ALTER TABLE "sessions" ALTER COLUMN "created_at" SET DATA TYPE bigint USING (extract(epoch from "created_at") * 1000)::bigint;--> statement-breakpoint
ALTER TABLE "sessions" ALTER COLUMN "updated_at" SET DATA TYPE bigint USING (extract(epoch from "updated_at") * 1000)::bigint;--> statement-breakpoint
ALTER TABLE "users" ALTER COLUMN "ban_expires" SET DATA TYPE bigint USING (extract(epoch from "ban_expires") * 1000)::bigint;--> statement-breakpoint
ALTER TABLE "users" ALTER COLUMN "created_at" SET DATA TYPE bigint USING (extract(epoch from "created_at") * 1000)::bigint;--> statement-breakpoint
ALTER TABLE "users" ALTER COLUMN "updated_at" SET DATA TYPE bigint USING (extract(epoch from "updated_at") * 1000)::bigint;