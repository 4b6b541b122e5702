/**
 * A loopback TCP relay in front of PostgreSQL that counts the round trips its clients make
 * (bench/pg-workers.ts: round trips per trial of the worker processes). A round trip is a message
 * after which the client waits for the server's ReadyForQuery: a simple `Query` ('Q') or an
 * extended query's `Sync` ('S'). The relay reads only the 5-byte header of each frontend message
 * (type, int32 length) and forwards the bytes unchanged; the server's replies are piped through.
 * Plain (non-TLS) connections only, as the throwaway cluster serves them.
 */
import net from "node:net";

/** A running relay. */
export interface PgWireCounter {
  /** The relay's URL: `url` with its host and port replaced. */
  url: string;
  /** Round trips (Query + Sync messages) since the start or the last {@link reset}. */
  roundTrips(): number;
  reset(): void;
  close(): Promise<void>;
}

/** The SSLRequest and GSSENCRequest codes of an untyped startup-phase message (refused: the relay speaks plain). */
const ENCRYPTION_REQUESTS = new Set([80877103, 80877104]);

/**
 * Starts a relay on 127.0.0.1 (a free port) to the server of `url` (postgres://…).
 * @throws when the port cannot be bound
 */
export async function startPgWireCounter(url: string): Promise<PgWireCounter> {
  const target = new URL(url);
  let count = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    sockets.add(client).add(upstream);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on("error", drop).on("close", drop);
    upstream.on("error", drop).on("close", drop);
    upstream.pipe(client);
    // Parser state across chunks: the header bytes seen so far, then how many body bytes to skip.
    let startup = true;
    let header = Buffer.alloc(0);
    let skip = 0;
    client.on("data", (chunk: Buffer) => {
      let i = 0;
      while (i < chunk.length) {
        if (skip > 0) {
          const n = Math.min(skip, chunk.length - i);
          skip -= n;
          i += n;
          continue;
        }
        // Startup-phase messages have no type byte: int32 length, int32 code.
        const want = startup ? 8 : 5;
        const n = Math.min(want - header.length, chunk.length - i);
        header = Buffer.concat([header, chunk.subarray(i, i + n)]);
        i += n;
        if (header.length < want) break;
        if (startup) {
          const length = header.readInt32BE(0);
          // After an encryption request the client sends its untyped startup message next.
          if (!ENCRYPTION_REQUESTS.has(header.readInt32BE(4))) startup = false;
          skip = length - 8;
        } else {
          if (header[0] === 0x51 || header[0] === 0x53) count++; // 'Q' or 'S'
          skip = header.readInt32BE(1) - 4;
        }
        header = Buffer.alloc(0);
      }
      upstream.write(chunk);
    });
  });
  await new Promise<void>((resolve, reject) => server.once("error", reject).listen(0, "127.0.0.1", resolve));
  const relay = new URL(url);
  relay.hostname = "127.0.0.1";
  relay.port = String((server.address() as net.AddressInfo).port);
  // The cluster may be on a unix socket (`?host=/dir`): the relay itself is TCP.
  relay.searchParams.delete("host");
  return {
    url: relay.toString(),
    roundTrips: () => count,
    reset: () => void (count = 0),
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
