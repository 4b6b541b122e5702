import Link from "next/link";

const styles = {
  primary: "bg-indigo-600 text-white hover:bg-indigo-700",
  secondary: "border border-slate-300 bg-white text-slate-800 hover:bg-slate-50",
} as const;

/** A link that looks like a Button (navigation, downloads). */
export function LinkButton({
  href,
  variant = "secondary",
  download,
  children,
  size = "md",
  title,
}: {
  href: string;
  variant?: keyof typeof styles;
  download?: boolean;
  children: React.ReactNode;
  size?: "sm" | "md";
  title?: string;
}) {
  const cls = `inline-flex items-center justify-center gap-1.5 rounded-md font-medium whitespace-nowrap ${size === "sm" ? "h-7 px-2.5 text-xs" : "h-9 px-3.5 text-sm"} ${styles[variant]}`;
  // Downloads are plain anchors: the route handler answers with a file, not a page.
  if (download)
    return (
      <a href={href} download className={cls} title={title}>
        {children}
      </a>
    );
  return (
    <Link href={href} className={cls} title={title}>
      {children}
    </Link>
  );
}
