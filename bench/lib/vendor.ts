/** The vendor's official RPC signing utility (dev dependency, benchmarks only). */
export type VendorSign = (params: Record<string, string>, method: string, secret: string) => string;

interface OpenApiUtil {
  getRPCSignature: VendorSign;
}

/** Node's ESM loader may wrap the CJS default export twice (`.default.default`). */
export async function loadVendorSigner(): Promise<VendorSign> {
  let candidate: unknown = await import('@alicloud/openapi-util');
  // The utility is a class with static methods: a function, not a plain object.
  for (let depth = 0; depth < 3 && (typeof candidate === 'object' || typeof candidate === 'function'); depth++) {
    if (candidate === null) break;
    if (typeof (candidate as Partial<OpenApiUtil>).getRPCSignature === 'function') {
      const util = candidate as OpenApiUtil;
      return (params, method, secret) => util.getRPCSignature(params, method, secret);
    }
    candidate = (candidate as { default?: unknown }).default;
  }
  throw new Error('@alicloud/openapi-util: getRPCSignature not found');
}
