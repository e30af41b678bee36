/**
 * Token-bucket arithmetic for every throttle of contract §5. A bucket holds up to `capacity`
 * tokens and refills at `capacity` per `windowMs`; a request takes one token. Pure: the caller
 * owns the buckets and the clock.
 */
export interface Bucket {
  tokens: number;
  at: number;
}

export interface Limit {
  capacity: number;
  windowMs: number;
}

export interface Take {
  bucket: Bucket;
  allowed: boolean;
  /** Whole tokens left after this request. */
  remaining: number;
  /** Seconds until a request would pass (≥ 1 when refused, 0 when allowed). */
  retryAfter: number;
  /** Seconds until the bucket is full again. */
  reset: number;
}

export function refill(bucket: Bucket | undefined, now: number, limit: Limit): Bucket {
  if (!bucket) return { tokens: limit.capacity, at: now };
  const elapsed = Math.max(0, now - bucket.at);
  const tokens = Math.min(limit.capacity, bucket.tokens + (elapsed * limit.capacity) / limit.windowMs);
  return { tokens, at: now };
}

export function take(previous: Bucket | undefined, now: number, limit: Limit): Take {
  const current = refill(previous, now, limit);
  const msPerToken = limit.windowMs / limit.capacity;
  const allowed = current.tokens >= 1;
  const bucket = allowed ? { tokens: current.tokens - 1, at: now } : current;
  const missing = limit.capacity - bucket.tokens;
  return {
    bucket,
    allowed,
    remaining: Math.floor(bucket.tokens),
    retryAfter: allowed ? 0 : Math.max(1, Math.ceil(((1 - bucket.tokens) * msPerToken) / 1000)),
    reset: Math.ceil((missing * msPerToken) / 1000),
  };
}

/** True when a bucket has refilled completely and can be forgotten without changing any answer. */
export function isIdle(bucket: Bucket, now: number, limit: Limit): boolean {
  return refill(bucket, now, limit).tokens >= limit.capacity;
}
