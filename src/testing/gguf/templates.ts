/**
 * Chat templates for the tiny model, in the three tool-call formats llama.cpp parses: Qwen2.5 (`<tool_call>`
 * blocks; the default), Llama 3.x (a bare JSON object, with its control tokens) and Hermes 2 Pro.
 */

/**
 * The Qwen2.5-Instruct chat template (ChatML with a `# Tools` system section,
 * `<tool_call>` blocks for assistant tool calls and `<tool_response>` for tool
 * results). llama.cpp recognizes it and parses `<tool_call>` output into
 * OpenAI-style `tool_calls`.
 */
export const QWEN25_CHAT_TEMPLATE =
  `{%- if tools %}
    {{- '<|im_start|>system\\n' }}
    {%- if messages[0]['role'] == 'system' %}
        {{- messages[0]['content'] }}
    {%- else %}
        {{- 'You are Qwen, created by Alibaba Cloud. You are a helpful assistant.' }}
    {%- endif %}
    {{- "\\n\\n# Tools\\n\\nYou may call one or more functions to assist with the user query.\\n\\n` +
  `You are provided with function signatures within <tools></tools> XML tags:\\n<tools>" }}
    {%- for tool in tools %}
        {{- "\\n" }}
        {{- tool | tojson }}
    {%- endfor %}
    {{- "\\n</tools>\\n\\nFor each function call, return a json object with function name and arguments ` +
  `within <tool_call></tool_call> XML tags:\\n<tool_call>\\n{\\"name\\": <function-name>, \\"arguments\\": <args-json-object>}\\n` +
  `</tool_call><|im_end|>\\n" }}
{%- else %}
    {%- if messages[0]['role'] == 'system' %}
        {{- '<|im_start|>system\\n' + messages[0]['content'] + '<|im_end|>\\n' }}
    {%- else %}
        {{- '<|im_start|>system\\nYou are Qwen, created by Alibaba Cloud. You are a helpful assistant.<|im_end|>\\n' }}
    {%- endif %}
{%- endif %}
{%- for message in messages %}
    {%- if (message.role == "user") or (message.role == "system" and not loop.first) ` +
  `or (message.role == "assistant" and not message.tool_calls) %}
        {{- '<|im_start|>' + message.role + '\\n' + message.content + '<|im_end|>' + '\\n' }}
    {%- elif message.role == "assistant" %}
        {{- '<|im_start|>' + message.role }}
        {%- if message.content %}
            {{- '\\n' + message.content }}
        {%- endif %}
        {%- for tool_call in message.tool_calls %}
            {%- if tool_call.function is defined %}
                {%- set tool_call = tool_call.function %}
            {%- endif %}
            {{- '\\n<tool_call>\\n{"name": "' }}
            {{- tool_call.name }}
            {{- '", "arguments": ' }}
            {{- tool_call.arguments | tojson }}
            {{- '}\\n</tool_call>' }}
        {%- endfor %}
        {{- '<|im_end|>\\n' }}
    {%- elif message.role == "tool" %}
        {%- if (loop.index0 == 0) or (messages[loop.index0 - 1].role != "tool") %}
            {{- '<|im_start|>user' }}
        {%- endif %}
        {{- '\\n<tool_response>\\n' }}
        {{- message.content }}
        {{- '\\n</tool_response>' }}
        {%- if loop.last or (messages[loop.index0 + 1].role != "tool") %}
            {{- '<|im_end|>\\n' }}
        {%- endif %}
    {%- endif %}
{%- endfor %}
{%- if add_generation_prompt %}
    {{- '<|im_start|>assistant\\n' }}
{%- endif %}
`;

/**
 * The token `QWEN25_TOOL_RESULT_CHAT_TEMPLATE` appends to the generation
 * prompt when the last message is a tool result (see `answerAfterToolResult`).
 */
export const TOOL_RESULT_MARKER = "</tool_response>";

/**
 * `QWEN25_CHAT_TEMPLATE`, except that when the last message has role "tool"
 * the generation prompt is `<|im_start|>assistant\n</tool_response>` instead
 * of `<|im_start|>assistant\n`, so the prompt's last token tells the model
 * that it is answering a tool result. Every other rendering is unchanged.
 * The default template of `answerAfterToolResult` models.
 */
export const QWEN25_TOOL_RESULT_CHAT_TEMPLATE = QWEN25_CHAT_TEMPLATE.replace(
  "{{- '<|im_start|>assistant\\n' }}\n{%- endif %}\n",
  "{{- '<|im_start|>assistant\\n' }}\n" +
    '    {%- if messages[messages|length - 1].role == "tool" %}\n' +
    `        {{- '${TOOL_RESULT_MARKER}' }}\n` +
    "    {%- endif %}\n" +
    "{%- endif %}\n",
);

/** The control tokens of the Llama 3.x chat format (pass as `extraSpecialTokens` with LLAMA32_CHAT_TEMPLATE). */
export const LLAMA3_SPECIAL_TOKENS = [
  "<|begin_of_text|>",
  "<|start_header_id|>",
  "<|end_header_id|>",
  "<|eot_id|>",
  "<|eom_id|>",
  "<|python_tag|>",
] as const;

/**
 * A chat template in the Llama 3.x tool-calling format (written for these
 * tests, not Meta's file): header tokens around each role, "Environment:
 * ipython" and the tools as JSON in the system turn, a tool call as the bare
 * JSON `{"name": …, "parameters": {…}}` ending the turn with `<|eot_id|>`,
 * and a tool result in the `ipython` role.
 */
export const LLAMA32_CHAT_TEMPLATE =
  `{{- bos_token }}
{%- if messages[0].role == "system" %}
    {%- set system_text = messages[0].content | trim %}
    {%- set messages = messages[1:] %}
{%- else %}
    {%- set system_text = "" %}
{%- endif %}
{{- "<|start_header_id|>system<|end_header_id|>\\n\\n" }}
{%- if tools %}
    {{- "Environment: ipython\\n" }}
{%- endif %}
{{- "Cutting Knowledge Date: December 2023\\n\\n" }}
{%- if tools %}
    {{- "To call a function, answer with JSON only, ` +
  `in the format {\\"name\\": function name, \\"parameters\\": an object of its arguments}. The functions:\\n\\n" }}
    {%- for t in tools %}
        {{- t | tojson }}
        {{- "\\n\\n" }}
    {%- endfor %}
{%- endif %}
{{- system_text + "<|eot_id|>" }}
{%- for message in messages %}
    {%- if message.role == "assistant" and message.tool_calls %}
        {{- "<|start_header_id|>assistant<|end_header_id|>\\n\\n" }}
        {%- for call in message.tool_calls %}
            {%- if call.function is defined %}
                {%- set call = call.function %}
            {%- endif %}
            {{- '{"name": "' + call.name + '", "parameters": ' }}
            {%- if call.arguments is string %}
                {{- call.arguments }}
            {%- else %}
                {{- call.arguments | tojson }}
            {%- endif %}
            {{- "}" }}
        {%- endfor %}
        {{- "<|eot_id|>" }}
    {%- elif message.role == "tool" or message.role == "ipython" %}
        {{- "<|start_header_id|>ipython<|end_header_id|>\\n\\n" + message.content + "<|eot_id|>" }}
    {%- else %}
        {{- "<|start_header_id|>" + message.role + "<|end_header_id|>\\n\\n" + (message.content | trim) + "<|eot_id|>" }}
    {%- endif %}
{%- endfor %}
{%- if add_generation_prompt %}
    {{- "<|start_header_id|>assistant<|end_header_id|>\\n\\n" }}
{%- endif %}
`;

/**
 * A chat template in the Hermes 2 Pro tool-calling format (written for these
 * tests, not NousResearch's file): ChatML, a system turn listing the tools
 * inside `<tools></tools>`, each call as `<tool_call>\n{"name": …,
 * "arguments": {…}}\n</tool_call>`, and results in a `tool` turn inside
 * `<tool_response>` (consecutive results share one turn).
 */
export const HERMES2PRO_CHAT_TEMPLATE =
  `{{- bos_token }}
{%- if tools %}
    {{- "<|im_start|>system\\nYou are a function calling AI model. The function signatures are within <tools></tools> XML tags. ` +
  `You may call one or more functions to help with the user query; do not make up argument values. <tools> " }}
    {%- for t in tools %}
        {{- t | tojson }}
        {%- if not loop.last %}
            {{- "\\n" }}
        {%- endif %}
    {%- endfor %}
    {{- " </tools>\\nFor each function call, return a JSON object with the function name and arguments ` +
  `within <tool_call></tool_call> XML tags:\\n<tool_call>\\n{\\"name\\": <function-name>, \\"arguments\\": <args-dict>}\\n` +
  `</tool_call><|im_end|>\\n" }}
{%- endif %}
{%- for message in messages %}
    {%- if message.role == "assistant" and message.tool_calls %}
        {{- "<|im_start|>assistant" }}
        {%- for call in message.tool_calls %}
            {%- if call.function is defined %}
                {%- set call = call.function %}
            {%- endif %}
            {{- '\\n<tool_call>\\n{"name": "' + call.name + '", "arguments": ' }}
            {%- if call.arguments is string %}
                {{- call.arguments }}
            {%- else %}
                {{- call.arguments | tojson }}
            {%- endif %}
            {{- "}\\n</tool_call>" }}
        {%- endfor %}
        {{- "<|im_end|>\\n" }}
    {%- elif message.role == "tool" %}
        {%- if loop.index0 == 0 %}
            {{- "<|im_start|>tool\\n" }}
        {%- elif messages[loop.index0 - 1].role != "tool" %}
            {{- "<|im_start|>tool\\n" }}
        {%- endif %}
        {{- "<tool_response>\\n" + message.content + "\\n</tool_response>" }}
        {%- if loop.last %}
            {{- "<|im_end|>\\n" }}
        {%- elif messages[loop.index0 + 1].role != "tool" %}
            {{- "<|im_end|>\\n" }}
        {%- else %}
            {{- "\\n" }}
        {%- endif %}
    {%- else %}
        {{- "<|im_start|>" + message.role + "\\n" + message.content + "<|im_end|>\\n" }}
    {%- endif %}
{%- endfor %}
{%- if add_generation_prompt %}
    {{- "<|im_start|>assistant\\n" }}
{%- endif %}
`;
