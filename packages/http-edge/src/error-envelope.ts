/** A code's HTTP status and default message, from the service's error registry. */
export type DescribeCode<C extends string> = (code: C) => {
  readonly status: number;
  readonly message: string;
};

/**
 * The one error body both services answer with (contracts "Errors"):
 * `{ error: { code, message, request_id } }`, the code from the service's registry.
 */
export function errorEnvelope<C extends string>(code: C, message: string, requestId: string) {
  return { error: { code, message, request_id: requestId } };
}
