// Synthetic Anthropic Messages streams for the benchmarks: thinking deltas, then text deltas,
// every delta event the same number of bytes, so that the mock provider's `--chunk-size`
// can hand them out one event per chunk at a steady rate.

/** Six-character tokens (five letters and a space). */
const TOKENS = 'prime check order bound value first count think proof steps which where since these might'.split(' ').map((w) => `${w} `);

const event = (name, data) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;

/** The bytes of one delta event (all are this long). */
export function deltaBytes() {
  return Buffer.byteLength(event('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: TOKENS[0] } }));
}

/**
 * A whole stream of `thinking` thinking tokens then `text` answer tokens. The text deltas
 * are padded to the same length as the thinking ones.
 */
export function anthropicStream({ thinking, text }) {
  const parts = [
    event('message_start', {
      type: 'message_start',
      message: { id: 'msg_bench', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 12, output_tokens: 1 } },
    }),
    event('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } }),
  ];
  for (let i = 0; i < thinking; i++) {
    parts.push(event('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: TOKENS[i % TOKENS.length] } }));
  }
  parts.push(event('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'RXF1aXZhbGVudCBiZW5jaCBzaWduYXR1cmU=' } }));
  parts.push(event('content_block_stop', { type: 'content_block_stop', index: 0 }));
  parts.push(event('content_block_start', { type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } }));
  for (let i = 0; i < text; i++) {
    // "text_delta"/"text" is 10 bytes shorter than "thinking_delta"/"thinking": pad the token.
    const token = TOKENS[i % TOKENS.length];
    parts.push(event('content_block_delta', { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: `${token}${' '.repeat(deltaBytes() - Buffer.byteLength(event('content_block_delta', { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: token } })))}` } }));
  }
  parts.push(event('content_block_stop', { type: 'content_block_stop', index: 1 }));
  parts.push(event('message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: thinking + text } }));
  parts.push(event('message_stop', { type: 'message_stop' }));
  return parts.join('');
}

/** Tokens for a stream of about `bytes` bytes, split nine parts thinking to one of text. */
export function tokensFor(bytes) {
  const n = Math.ceil(bytes / deltaBytes());
  return { thinking: Math.round(n * 0.9), text: n - Math.round(n * 0.9) };
}
