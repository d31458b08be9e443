/**
 * The output-schema check of the SDK client's `callTool`, for the tool results that do not pass
 * through it: calls that go through MCP Tasks (2025 task tools, and every call to a 2026 server
 * with the tasks extension). The same errors as the SDK's, so that both paths fail alike.
 */
import {
  type CallToolResult,
  type JsonSchemaType,
  type jsonSchemaValidator,
  ProtocolError,
  ProtocolErrorCode,
  type Tool,
} from "@modelcontextprotocol/client";

/** Checks one result of a tool against its output schema; throws as the SDK does. */
export type OutputCheck = (result: CallToolResult) => void;

/**
 * The check of `tool`'s results (none without an output schema). An output schema the validator
 * cannot compile is an `InvalidParams` error at once, before any call, as in the SDK.
 */
export function outputCheck(validator: jsonSchemaValidator, tool: Tool | undefined): OutputCheck {
  if (!tool?.outputSchema) return () => {};
  const name = tool.name;
  let validate: ReturnType<jsonSchemaValidator["getValidator"]>;
  try {
    validate = validator.getValidator(tool.outputSchema as JsonSchemaType);
  } catch (error) {
    const message = (error instanceof Error ? error.message : String(error)).slice(0, 200);
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `Tool '${name}' has an invalid outputSchema: ${message}`,
    );
  }
  return (result) => {
    if (result.isError) return;
    if (result.structuredContent === undefined) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidRequest,
        `Tool ${name} has an output schema but did not return structured content`,
      );
    }
    let outcome: ReturnType<typeof validate>;
    try {
      outcome = validate(result.structuredContent);
    } catch (error) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Failed to validate structured content: ${
          error instanceof Error ? error.message : String(error)
        }`,
      );
    }
    if (!outcome.valid) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Structured content does not match the tool's output schema: ${outcome.errorMessage}`,
      );
    }
  };
}
