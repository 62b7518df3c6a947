// The service's API, from the page: one POST helper and the problem text.
// Every number a page shows comes from these answers; the pages hold no rules.

export class ApiError extends Error {
  constructor(status, problem, path) {
    super(describe(problem, status, path));
    this.status = status;
    this.problem = problem;
    this.path = path;
  }
  /** The service does not offer this operation (yet): the page says so instead of failing. */
  get missing() {
    return this.status === 404 || this.status === 405;
  }
}

function describe(problem, status, path) {
  if (status === 404 || status === 405) {
    return `This service does not offer POST ${path} (it answered ${status}).`;
  }
  if (!problem || typeof problem !== "object") return `The service answered ${status}.`;
  const errors = Array.isArray(problem.errors) ? problem.errors : [];
  const reasons = errors
    .map((e) => (e.field ? `${e.field}: ${e.reason}` : e.reason))
    .filter(Boolean);
  const head = problem.title || `Error ${status}`;
  return reasons.length ? `${head}: ${reasons.join("; ")}` : `${head}: ${problem.detail || status}`;
}

/** POST a JSON body; the parsed answer, or an ApiError carrying the problem. */
export async function post(path, body) {
  let resp;
  try {
    resp = await fetch(path, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify(body),
    });
  } catch (err) {
    throw new ApiError(0, { title: "The service cannot be reached", detail: String(err) }, path);
  }
  const text = await resp.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = { title: `Not JSON (${resp.status})`, detail: text.slice(0, 200) };
  }
  if (!resp.ok) throw new ApiError(resp.status, data, path);
  return data;
}

/** Show a message in an element (role=alert or status); empty text hides it. */
export function say(el, text, kind = "error") {
  el.textContent = text || "";
  el.hidden = !text;
  el.dataset.kind = kind;
}
