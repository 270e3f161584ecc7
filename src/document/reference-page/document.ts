// The two ways into the OpenAPI document that every part of the reference page needs:
// following a $ref, and gathering examples. test/helpers/conformance.ts resolves its pointers
// with the same resolvePointer.
import type { OpenAPIV3_1 as OpenApi } from "openapi-types";

export type { OpenApi };

/** Anything that may carry examples: OpenAPI writes `examples` as a map of Example Objects, JSON Schema as an array. */
export type Examples = { example?: unknown; examples?: unknown };

export const referenceName = (ref: string) => ref.slice(ref.lastIndexOf("/") + 1);

/** The value at a JSON Pointer (RFC 6901) such as `/components/schemas/Pet`. */
export const resolvePointer = (document: unknown, pointer: string): unknown => {
  let value = document;
  for (const segment of pointer.slice(1).split("/")) {
    value = (value as Record<string, unknown>)[segment.replaceAll("~1", "/").replaceAll("~0", "~")];
  }
  if (value === undefined) throw new Error(`The OpenAPI document has nothing at ${pointer}.`);
  return value;
};

/** Every operation with its path and method (the generator writes path items of operations only). */
export const operationsOf = (document: OpenApi.Document) =>
  Object.entries(document.paths ?? {}).flatMap(([path, methods]) =>
    Object.entries(methods as Record<string, OpenApi.OperationObject>).map(([method, operation]) => ({
      path,
      method: method.toUpperCase(),
      operation,
    })),
  );

export const readerOf = (document: OpenApi.Document) => {
  const resolve = <T extends object>(value: T | OpenApi.ReferenceObject): T =>
    "$ref" in value ? (resolvePointer(document, value.$ref.replace(/^#/, "")) as T) : value;

  /** The examples of a parameter, header, media type or schema, in the document's order. */
  const examplesOf = (holder: object): OpenApi.ExampleObject[] => {
    const { example, examples } = holder as Examples;
    return [
      ...(example === undefined ? [] : [{ value: example }]),
      ...(Array.isArray(examples)
        ? examples.map((value) => ({ value }))
        : Object.entries(examples && typeof examples === "object" ? examples : {}).map(([name, entry]) => ({
            summary: name,
            ...resolve<OpenApi.ExampleObject>(entry),
          }))),
    ];
  };

  return { resolve, examplesOf };
};
export type Reader = ReturnType<typeof readerOf>;
