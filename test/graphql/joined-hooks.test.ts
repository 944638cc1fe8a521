import { createSchema, createYoga, type Plugin } from "graphql-yoga";
import { describe, expect, it } from "vitest";
import { withJoinedHooks } from "../../src/graphql/joined-hooks.js";

const schema = createSchema({ typeDefs: "type Query { hello: String }", resolvers: { Query: { hello: () => "hola" } } });
const serve = (plugins: Plugin[]) => createYoga({ schema, plugins: withJoinedHooks(plugins), logging: false });
const pause = () => new Promise((resolve) => setTimeout(resolve, 5));

describe("plugins whose request and response hooks run as one", () => {
  it("run their request hooks in order, a promise awaited before the next hook", async () => {
    const seen: string[] = [];
    const yoga = serve([
      { onRequest: () => void seen.push("a") },
      { onRequest: () => pause().then(() => void seen.push("b")) },
      { onRequest: () => void seen.push("c") },
    ]);
    await yoga.fetch("http://x/graphql?query={hello}");
    expect(seen).toEqual(["a", "b", "c"]);
  });

  it("hand a request one hook sets to the hooks after it", async () => {
    const yoga = serve([
      {
        onRequest: ({ request, setRequest, fetchAPI }) =>
          setRequest(new fetchAPI.Request(request.url, { headers: { "x-quien": "primero" } })),
      },
      {
        onRequest: ({ request, endResponse, fetchAPI }) => endResponse(new fetchAPI.Response(request.headers.get("x-quien") ?? "nadie")),
      },
    ]);
    expect(await (await yoga.fetch("http://x/graphql?query={hello}")).text()).toBe("primero");
  });

  it("hand a request handler one hook sets to the hooks after it, and answer with it", async () => {
    const seen: boolean[] = [];
    const own = (_request: Request) => new Response("propia");
    const yoga = serve([
      { onRequest: ({ setRequestHandler }) => setRequestHandler(own as never) },
      { onRequest: ({ requestHandler }) => void seen.push(requestHandler === (own as never)) },
    ]);
    expect(await (await yoga.fetch("http://x/graphql?query={hello}")).text()).toBe("propia");
    expect(seen).toEqual([true]);
  });

  it("stop at the hook that answers, at once or later: the hooks after it never run", async () => {
    const now: Plugin = { onRequest: ({ endResponse, fetchAPI }) => endResponse(new fetchAPI.Response("ya")) };
    const later: Plugin = { onRequest: ({ endResponse, fetchAPI }) => pause().then(() => endResponse(new fetchAPI.Response("ya"))) };
    for (const answering of [now, later]) {
      const after: string[] = [];
      const yoga = serve([answering, { onRequest: () => void after.push("ran") }]);
      expect(await (await yoga.fetch("http://x/graphql?query={hello}")).text()).toBe("ya");
      expect(after).toEqual([]);
    }
  });

  it("hand a response one hook sets to the response hooks after it, and send the last one", async () => {
    const seen: number[] = [];
    const yoga = serve([
      { onResponse: ({ setResponse, fetchAPI }) => pause().then(() => setResponse(new fetchAPI.Response("cambiada", { status: 202 }))) },
      { onResponse: ({ response }) => void seen.push(response.status) },
      { onResponse: ({ response, setResponse, fetchAPI }) => setResponse(new fetchAPI.Response("final", { status: response.status + 1 })) },
    ]);
    const response = await yoga.fetch("http://x/graphql?query={hello}");
    expect(seen).toEqual([202]);
    expect(response.status).toBe(203);
    expect(await response.text()).toBe("final");
  });

  it("keep every other hook of each plugin", async () => {
    let executed = 0;
    const yoga = serve([{ onRequest: () => undefined, onExecute: () => void executed++ }]);
    const response = await yoga.fetch("http://x/graphql?query={hello}");
    expect(await response.json()).toEqual({ data: { hello: "hola" } });
    expect(executed).toBe(1);
  });
});
