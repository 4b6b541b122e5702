import type { Metadata } from "next";
import { getDb } from "@/db/client";
import { activityFacets, listActivity } from "@/db/queries/activity";
import { activityRange, parseActivityQuery, ACTIVITY_PAGE_SIZE } from "@/lib/audit/activity-query";
import { AuthError, currentActor, requireRole } from "@/server/auth/actor";
import { ActivityView } from "@/components/audit/activity-view";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Activity" };

/** Admin-only audit trail (issue 19): who changed what, when; filters, sort and page live in the URL. */
export default async function ActivityPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  try {
    requireRole(await currentActor(), "admin");
  } catch (e) {
    if (!(e instanceof AuthError)) throw e;
    return (
      <div className="flex flex-col gap-2">
        <h1 className="text-xl font-semibold">Activity</h1>
        <p className="text-sm text-red-700" role="alert">
          {e.code === "unauthenticated" ? "Sign in to see the activity." : "Only admins can see the activity."}
        </p>
      </div>
    );
  }
  const q = parseActivityQuery(await searchParams);
  const db = getDb();
  const range = activityRange(q);
  const { rows, total } = await listActivity(
    db,
    { actor: q.actor, action: q.action, subjectType: q.subject, subjectId: q.subjectId, ...range },
    { sort: q.sort, dir: q.dir, page: q.page, pageSize: ACTIVITY_PAGE_SIZE },
  );
  return <ActivityView query={q} rows={rows} total={total} facets={await activityFacets(db)} />;
}
