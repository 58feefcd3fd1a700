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
  // Envelope messages (5007 notices, 4003, 4004), word for word as the routes throw them: the
  // envelope is answered in the caller's language by matching these (see `inLanguage`).
  fields: {
    email: 'email',
    password: 'password',
    oldPassword: 'oldPassword',
    newPassword: 'newPassword',
    nickname: 'nickname',
    name: 'name',
    content: 'content',
    first_mes: 'first_mes',
  },
  fieldErrors: {
    required: 'is required',
    email: 'must be an e-mail address',
    atLeast: 'must be at least {{number}} characters',
    atMost: 'must be at most {{number}} characters',
    onlySpaces: 'must not be only spaces',
    guessable:
      'is too easy to guess (a common password, a pattern or your address); a few uncommon words make a strong one',
    nul: 'must not contain the character U+0000',
    hidden: 'must not hold control or invisible characters',
    picture: 'must be an https: address or a picture uploaded here',
  },
  notices: {
    server: {
      internal: 'Something went wrong on our side. Please try again.',
      storage:
        'Stored files (portraits, pictures, voice) cannot be reached just now. Please try again in a moment.',
      full: 'The server is out of storage space. Please try again later.',
    },
    account: {
      wrongPassword: 'Wrong e-mail address or password.',
      confirmEmail: 'Please confirm your e-mail address first: open the link we sent you.',
      currentPassword: 'The current password is not right.',
      resetLinkDead: 'This reset link has expired or was already used. Ask for a new one.',
      googleNotSetUp: 'Google sign-in is not set up on this server.',
      googleNotConfirmed: 'Google could not confirm this sign-in. Please try again.',
      googleNoEmail: 'Your Google account has no verified e-mail address.',
      discordNotSetUp: 'Discord sign-in is not set up on this server.',
      discordNotConfirmed: 'Discord could not confirm this sign-in. Please try again.',
      discordTimeout: 'Discord did not answer in time. Please try again later.',
      discordUnreachable: 'Discord could not be reached. Please try again later.',
      discordUnreadable: 'Discord sent an answer we could not read. Please try again later.',
      discordNoEmail: 'Your Discord account has no verified e-mail address.',
    },
    balance: {
      dailyCap:
        'You reached your daily spending limit. It resets at midnight UTC, or raise it on your subscription page.',
      noChatsLeft: 'You have no chats left. Get more on the subscription page.',
    },
    chat: {
      replyInProgress: 'A reply is still being written in this room.',
      waitDelete: 'Wait for the reply to finish, or stop it, before deleting messages.',
      waitEdit: 'Wait for the reply to finish, or stop it, before editing messages.',
      waitVersion: 'Wait for the reply to finish, or stop it, before choosing another version.',
      versionChanged: 'This reply changed meanwhile. Look at it again, then choose a version.',
      noSuggestions: 'No suggestions came to mind this time. Please try again.',
      draftFailed:
        'The model could not draft a character from this idea. Please try again, or describe it differently.',
      matureCreate: 'Turn on mature content in your settings to create a mate for adults.',
    },
    mates: {
      matureView: 'This mate is for adults. Turn on mature content in your settings to see it.',
      ownReview: 'You cannot review your own mate.',
      ownReport: 'You cannot report your own mate.',
      hiddenPublic:
        'Moderators hid this mate, so it cannot be made public. Their reason is shown on its page.',
      hiddenExport:
        'Moderators hid this mate, so its card cannot be exported. Their reason is shown on its page.',
      adminsOnly: 'Only administrators can moderate reports.',
    },
    pictures: {
      notSetUp: 'Pictures are not set up on this server.',
      engineDown: 'Pictures cannot be made right now: the picture engine does not answer.',
      notEnoughCoins:
        'You do not have enough gold coins for a picture. Get more in the shop, then try again.',
      notQueued: 'The picture could not be started. Your gold coins were given back.',
      notFinished: 'Only a finished picture can be shared. Wait until it is drawn.',
    },
    voice: {
      notSetUp: 'Voice is not set up on this server.',
      notEnoughCoins:
        'You do not have enough gold coins to hear this message. Get more in the shop, then try again.',
      waitListen: 'Wait for the reply to finish before listening to it.',
      notMade: 'This voice could not be made. Your gold coins were given back.',
      notReady:
        'Voice is getting ready on this server (its model is still loading). Try again in a little while.',
      unavailable: 'Voice is not available right now. Tell the server’s owner.',
      unreachable: 'The voice engine could not be reached.',
      unauthorized: 'The voice engine refused this server. Tell the server’s owner.',
      busy: 'The voice engine is busy. Try again in a little while.',
      rejected: 'The voice engine cannot speak this voice or text.',
      failed: 'The voice engine failed while speaking.',
      timeout: 'The voice took too long to make.',
      cut: 'The connection to the voice engine dropped while speaking.',
      malformed: 'The voice engine answered without audio.',
      cancelled: 'The voice was cancelled.',
    },
    transcription: {
      notSetUp: 'Speech to text is not set up on this server.',
      unreachable:
        'The speech-to-text engine could not be reached. Try again later, or type your message.',
      unauthorized: 'The speech-to-text engine refused this server. Tell the server’s owner.',
      busy: 'The speech-to-text engine is busy. Try again in a little while.',
      rejected: 'The speech-to-text engine could not use this recording. Try recording again.',
      failed: 'The speech-to-text engine failed while listening. Try again.',
      timeout: 'The recording took too long to turn into text. Try a shorter one.',
      cut: 'The connection to the speech-to-text engine dropped. Try again.',
      malformed: 'The speech-to-text engine answered without any text. Try again.',
      cancelled: 'The recording was not turned into text: it was cancelled.',
    },
    payments: {
      notSetUp: 'Payments are not set up on this server.',
      free: 'This package is free: there is nothing to pay.',
      planHeld:
        'You already have a plan. Cancel it on your subscription page before choosing another one.',
      checkoutStarting: 'Your other checkout is still starting. Please try again in a moment.',
      noPlan: 'You have no plan to change.',
      unreachable: 'The payment service cannot be reached right now. Please try again in a minute.',
    },
    notFound: {
      mate: 'Mate not found.',
      message: 'Message not found.',
      persona: 'Persona not found.',
      picture: 'Picture not found.',
      creator: 'Creator not found.',
      room: 'Room not found.',
      package: 'Package not found.',
      checkout: 'Checkout not found.',
    },
  },
} as const;
