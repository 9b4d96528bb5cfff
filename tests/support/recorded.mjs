// Real recordings reshaped for a test: a whole Anthropic response replayed as the stream the
// API sends for it, with its tool call pointed at a tool the test's MCP server has. The
// thinking block, its signature and everything else stay as recorded.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { repoRoot } from './paths.mjs';

export function realRecording(path) {
  return JSON.parse(readFileSync(join(repoRoot, 'tests', 'fixtures', 'real', path), 'utf8'));
}

/** The SSE events of a whole Messages response; `tool` replaces its tool_use's name and input. */
export function anthropicStream(message, tool) {
  const events = [];
  const emit = (type, data) => events.push(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  emit('message_start', { message: { ...message, content: [] } });
  message.content.forEach((block, index) => {
    if (block.type === 'thinking') {
      emit('content_block_start', { index, content_block: { ...block, thinking: '', signature: '' } });
      emit('content_block_delta', { index, delta: { type: 'thinking_delta', thinking: block.thinking } });
      emit('content_block_delta', { index, delta: { type: 'signature_delta', signature: block.signature } });
    } else if (block.type === 'text') {
      emit('content_block_start', { index, content_block: { ...block, text: '' } });
      emit('content_block_delta', { index, delta: { type: 'text_delta', text: block.text } });
    } else if (block.type === 'tool_use') {
      const call = tool ? { ...block, name: tool.name, input: tool.input } : block;
      emit('content_block_start', { index, content_block: { ...call, input: {} } });
      emit('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(call.input) } });
    }
    emit('content_block_stop', { index });
  });
  emit('message_delta', { delta: { stop_reason: message.stop_reason }, usage: { output_tokens: message.usage.output_tokens } });
  emit('message_stop', {});
  return events.join('');
}
