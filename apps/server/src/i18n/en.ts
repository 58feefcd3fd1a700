/** The server's own sentences for people, in English (the fallback for every language). */
export const en = {
  reply: {
    unavailable: 'The model is not available right now. Please try again later.',
    loading: 'The model is still starting up. Please send again in a moment.',
    unreachable: 'The model cannot be reached right now. Please try again in a moment.',
    busy: 'The model is busy. Please try again in a moment.',
    failed: 'The model could not answer right now. Please try again in a moment.',
    timeout: 'The model took too long to answer. Please try again.',
    cut: 'The reply stopped before it was finished. What arrived is kept.',
    empty: 'The model sent no reply. Your chat was given back.',
    notSaved: 'The reply could not be saved. Please try again.',
    internal: 'The reply could not be finished. What arrived is kept.',
    shutdown: 'The server is restarting. What arrived is kept; send again in a moment.',
  },
  room: {
    readOnly: 'This mate is no longer available. You can read this chat, but not continue it.',
  },
} as const;
