import { useSyncExternalStore } from "react";

const subscribe = () => () => {};

/**
 * Whether this render runs in a browser after hydration: false on the server and while React
 * hydrates the server's HTML (both must render the same), true from the render that follows, and at
 * once in a component first mounted on the client.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
