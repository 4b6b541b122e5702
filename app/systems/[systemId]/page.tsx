import { redirect } from "next/navigation";

export default async function SystemPage({ params }: { params: Promise<{ systemId: string }> }) {
  const { systemId } = await params;
  redirect(`/systems/${systemId}/library`);
}
