/** GET /api/v1/openapi.json: the API's OpenAPI 3.1 document (no data, so no role needed). */
import { openApiDocument } from "@/lib/api/openapi";

export const dynamic = "force-dynamic";

export function GET(request: Request) {
  return Response.json(openApiDocument(new URL(request.url).origin), { headers: { "cache-control": "no-store" } });
}
