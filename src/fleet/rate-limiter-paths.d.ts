// The rate-limiter-flexible modules the fleet loads directly (the package's root loads every store it supports).
declare module 'rate-limiter-flexible/lib/RateLimiterRedis.js' {
  import type { RateLimiterRedis } from 'rate-limiter-flexible';

  const RateLimiterRedisClass: typeof RateLimiterRedis;
  export default RateLimiterRedisClass;
}
declare module 'rate-limiter-flexible/lib/RateLimiterMemory.js' {
  import type { RateLimiterMemory } from 'rate-limiter-flexible';

  const RateLimiterMemoryClass: typeof RateLimiterMemory;
  export default RateLimiterMemoryClass;
}
declare module 'rate-limiter-flexible/lib/RateLimiterRes.js' {
  import type { RateLimiterRes } from 'rate-limiter-flexible';

  const RateLimiterResClass: typeof RateLimiterRes;
  export default RateLimiterResClass;
}
