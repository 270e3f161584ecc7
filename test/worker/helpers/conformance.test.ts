import { describe, expect, it } from "vitest";
import { conformanceProblems } from "../../helpers/conformance";

// The check that every answer of the suites goes through (test/helpers/conformance.ts) leaves
// out only a CORS preflight's answer, and reads a HEAD answer as GET's without its body.

const PETS = "https://petstore.test/v1/pets";
const noContent = () => new Response(null, { status: 204 });

describe("the conformance check", () => {
  it("checks a plain OPTIONS answered 204, and leaves out only a preflight's answer", async () => {
    expect(await conformanceProblems(new Request(PETS, { method: "OPTIONS" }), noContent())).toEqual([
      "/pets has no OPTIONS operation, and no operation of it declares 204",
    ]);
    const preflight = new Request(PETS, {
      method: "OPTIONS",
      headers: { Origin: "https://app.example", "Access-Control-Request-Method": "POST" },
    });
    expect(await conformanceProblems(preflight, noContent())).toEqual([]);
  });

  it("checks a HEAD answer's status and headers as GET's", async () => {
    const head = new Request(PETS, { method: "HEAD" });
    expect(await conformanceProblems(head, new Response(null, { status: 418 }))).toEqual([
      "listPets (HEAD /pets) does not declare the status 418",
    ]);
    const problems = await conformanceProblems(
      head,
      new Response(null, { status: 200, headers: { "X-Unknown": "1" } }),
    );
    expect(problems).toContain("the header x-unknown is not declared");
  });
});
