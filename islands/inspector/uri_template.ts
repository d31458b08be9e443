/**
 * URI templates (RFC 6570) as resource templates use them: the variables of a template, and the
 * URI it expands to with string values (all operators; `:n` prefixes; explode is treated as a
 * plain value since every value here is one string).
 */

interface Operator {
  first: string;
  separator: string;
  named: boolean;
  /** What follows a named variable whose value is empty. */
  ifEmpty: string;
  reserved: boolean;
}

const OPERATORS: Record<string, Operator> = {
  "": { first: "", separator: ",", named: false, ifEmpty: "", reserved: false },
  "+": { first: "", separator: ",", named: false, ifEmpty: "", reserved: true },
  "#": { first: "#", separator: ",", named: false, ifEmpty: "", reserved: true },
  ".": { first: ".", separator: ".", named: false, ifEmpty: "", reserved: false },
  "/": { first: "/", separator: "/", named: false, ifEmpty: "", reserved: false },
  ";": { first: ";", separator: ";", named: true, ifEmpty: "", reserved: false },
  "?": { first: "?", separator: "&", named: true, ifEmpty: "=", reserved: false },
  "&": { first: "&", separator: "&", named: true, ifEmpty: "=", reserved: false },
};

const EXPRESSION = /\{([^{}]+)\}/g;

function parse(expression: string): { operator: Operator; specs: [string, number?][] } {
  const symbol = "+#./;?&".includes(expression[0]) ? expression[0] : "";
  const body = symbol ? expression.slice(1) : expression;
  const specs = body.split(",").map((spec): [string, number?] => {
    const prefix = /^(.*):(\d+)$/.exec(spec);
    if (prefix) return [prefix[1], Number(prefix[2])];
    return [spec.replace(/\*$/, "")];
  });
  return { operator: OPERATORS[symbol], specs };
}

/** Percent-encodes a value; `reserved` keeps the characters of `+` and `#` expansions. */
function encode(value: string, reserved: boolean): string {
  if (reserved) return encodeURI(value).replace(/%25([0-9A-Fa-f]{2})/g, "%$1");
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16)}`);
}

/** A variable of a template; `optional` for query and parameter variables (`{?q}`, `{;p}`). */
export interface TemplateVariable {
  name: string;
  optional: boolean;
}

/** The variables of a template, in order, each once. */
export function templateVariables(template: string): TemplateVariable[] {
  const variables: TemplateVariable[] = [];
  for (const [, expression] of template.matchAll(EXPRESSION)) {
    const { operator, specs } = parse(expression);
    for (const [name] of specs) {
      if (name && !variables.some((known) => known.name === name)) {
        variables.push({ name, optional: operator.named });
      }
    }
  }
  return variables;
}

/** The URI of a template with `values`; variables without a value are left out. */
export function expandTemplate(template: string, values: Record<string, string | undefined>) {
  return template.replace(EXPRESSION, (_, expression: string) => {
    const { operator, specs } = parse(expression);
    const parts: string[] = [];
    for (const [name, prefix] of specs) {
      const value = values[name];
      if (value === undefined) continue;
      const text = encode(prefix === undefined ? value : value.slice(0, prefix), operator.reserved);
      parts.push(
        operator.named ? (text === "" ? `${name}${operator.ifEmpty}` : `${name}=${text}`) : text,
      );
    }
    return parts.length === 0 ? "" : operator.first + parts.join(operator.separator);
  });
}
