/**
 * A fetch `Response` over a body that is already in memory, for {@link nodeFetch}. Undici's own
 * `Response` validates and copies its headers and wraps the bytes in a web stream up front; on the
 * bench worker's hot path (thousands of model calls per second, issue #5) that cost shows up. This
 * one keeps Node's parsed headers as they are and makes the body stream only when it is asked for.
 * It follows the fetch standard for everything it offers: read-only headers with case-insensitive
 * names, one read of the body (`bodyUsed`, then a TypeError), `clone()` before reading.
 */
import type { IncomingHttpHeaders } from "node:http";

const utf8 = new TextDecoder();

/** Read-only response headers (the fetch standard's "immutable" guard), iterated in name order. */
export class BufferedHeaders implements Headers {
  readonly #map: Map<string, string>;
  readonly #cookies: string[];

  /** @param headers Node's parsed response headers (lower-case names; `set-cookie` as a list) */
  constructor(headers: IncomingHttpHeaders) {
    const names = Object.keys(headers).sort();
    this.#map = new Map();
    this.#cookies = [];
    for (const name of names) {
      const v = headers[name];
      if (v === undefined) continue;
      if (Array.isArray(v)) {
        if (name === "set-cookie") this.#cookies.push(...v);
        this.#map.set(name, v.join(", "));
      } else this.#map.set(name, v);
    }
  }

  get(name: string): string | null {
    return this.#map.get(name.toLowerCase()) ?? null;
  }
  has(name: string): boolean {
    return this.#map.has(name.toLowerCase());
  }
  getSetCookie(): string[] {
    return [...this.#cookies];
  }
  forEach(callback: (value: string, key: string, parent: Headers) => void, thisArg?: unknown): void {
    for (const [k, v] of this.#map) callback.call(thisArg, v, k, this);
  }
  entries(): HeadersIterator<[string, string]> {
    return this.#map.entries() as HeadersIterator<[string, string]>;
  }
  keys(): HeadersIterator<string> {
    return this.#map.keys() as HeadersIterator<string>;
  }
  values(): HeadersIterator<string> {
    return this.#map.values() as HeadersIterator<string>;
  }
  [Symbol.iterator](): HeadersIterator<[string, string]> {
    return this.entries();
  }
  append(): never {
    throw new TypeError("Headers of a response are immutable");
  }
  set(): never {
    throw new TypeError("Headers of a response are immutable");
  }
  delete(): never {
    throw new TypeError("Headers of a response are immutable");
  }
  get [Symbol.toStringTag]() {
    return "Headers";
  }
}

/** A response whose body bytes are already read (see module doc). */
export class BufferedResponse implements Response {
  readonly type = "basic" as const;
  readonly redirected = false;
  #bytes: Uint8Array | null;
  #used = false;
  #stream: ReadableStream<Uint8Array> | null = null;

  /**
   * @param bytes the body (null: no body, as for 204 and 304)
   * @param status HTTP status code
   * @param statusText reason phrase
   * @param headers response headers
   * @param url the requested URL
   */
  constructor(
    bytes: Uint8Array | null,
    readonly status: number,
    readonly statusText: string,
    readonly headers: BufferedHeaders,
    readonly url: string,
  ) {
    this.#bytes = bytes;
  }

  get ok(): boolean {
    return this.status >= 200 && this.status <= 299;
  }
  get bodyUsed(): boolean {
    return this.#used;
  }
  get body(): ReadableStream<Uint8Array<ArrayBuffer>> | null {
    if (this.#bytes === null) return null;
    if (!this.#stream) {
      const bytes = this.#bytes;
      const mark = () => (this.#used = true);
      this.#stream = new ReadableStream<Uint8Array>({
        pull(c) {
          mark();
          if (bytes.byteLength) c.enqueue(bytes);
          c.close();
        },
      });
    }
    return this.#stream as ReadableStream<Uint8Array<ArrayBuffer>>;
  }

  #take(): Uint8Array {
    if (this.#used || this.#stream?.locked) throw new TypeError("Body is unusable: body has already been read");
    this.#used = true;
    return this.#bytes ?? new Uint8Array(0);
  }

  async bytes(): Promise<Uint8Array<ArrayBuffer>> {
    return new Uint8Array(this.#take()) as Uint8Array<ArrayBuffer>;
  }
  async arrayBuffer(): Promise<ArrayBuffer> {
    return (await this.bytes()).buffer;
  }
  async text(): Promise<string> {
    return utf8.decode(this.#take());
  }
  async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }
  async blob(): Promise<Blob> {
    return new Blob([await this.bytes()], { type: this.headers.get("content-type") ?? "" });
  }
  async formData(): Promise<FormData> {
    // Model APIs answer JSON or event streams; undici parses forms the standard way.
    return new Response(await this.bytes(), { headers: { "content-type": this.headers.get("content-type") ?? "" } }).formData();
  }
  clone(): Response {
    if (this.#used || this.#stream?.locked) throw new TypeError("Response.clone: body has already been consumed");
    return new BufferedResponse(this.#bytes, this.status, this.statusText, this.headers, this.url);
  }
}
