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
    gone: 'This chat was deleted while the reply was being written.',
    internal: 'The reply could not be finished. What arrived is kept.',
    shutdown: 'The server is restarting. What arrived is kept; send again in a moment.',
  },
  room: {
    readOnly: 'This mate is no longer available. You can read this chat, but not continue it.',
    groupGone:
      'No mate of this group is available any more. You can read this chat, but not continue it.',
    speakerGone: '{{name}} is no longer available: what it saw is not shown.',
  },
  memory: {
    tooMany: 'This chat remembers {{count}} things at most. Forget one before adding another.',
    writing:
      'Memories could not be written from the older messages: the model did not answer. Try again in a moment.',
    unreadable:
      'Memories could not be written from the older messages: the model answered something that was not a list of memories. Try again.',
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
    oldDefault: 'must not be the start of your e-mail address',
  },
  notices: {
    privacy: {
      exportFailed: 'Your data could not be gathered. Please ask for it again.',
      proofNeeded:
        'Confirm it is you first: enter your password, or sign in again with Google or Discord.',
      wrongPassword: 'The password is not right.',
      otherAccount: 'That sign-in belongs to another account. Use the account you are deleting.',
    },
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
      noPassword:
        'This account signs in with Google or Discord and has no password yet. To set one, ask for a reset link at its address.',
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
      personaLimit: 'You can have at most {{count}} personas. Delete one to make room.',
    },
    limits: {
      second: 'Too many attempts. Please try again in {{count}} second.',
      seconds: 'Too many attempts. Please try again in {{count}} seconds.',
      minutes: 'Too many attempts. Please try again in {{count}} minutes.',
    },
    balance: {
      dailyCap:
        'You reached your daily spending limit. It resets at midnight UTC, or raise it on your subscription page.',
      noChatsLeft: 'You have no chats left. Get more on the subscription page.',
    },
    group: {
      busy: 'Wait for the mates to finish, or stop them, before changing who is in the group.',
      speakerLeft:
        '{{name}} left the group: the reply stays as it is. Let another mate speak instead.',
      acrossChatsPerMate:
        'roomId: remember me across chats is set in a chat with one mate; in a group, each mate brings what it knows of you.',
      unknownMate: 'mateIds: there is no mate you can chat with by this id.',
      twice: 'mateIds: a mate can be in a group once.',
      notGroup: 'roomId: this chat is not a group chat.',
      notMember: 'mateId: this mate is not in the group.',
      alreadyMember: 'mateId: this mate is already in the group.',
      badOrder: 'order: list every mate of the group once, in its new place.',
      full: 'A group has {{count}} mates at most. Remove one to invite another.',
      tooFew: 'A group needs at least {{count}} mates. Invite another before removing this one.',
      talkedEnough: 'The mates have talked among themselves for a while. Write something to go on.',
    },
    chat: {
      replyInProgress: 'A reply is still being written in this room.',
      locksUnavailable: 'Chats cannot start or change right now. Please try again in a moment.',
      notYourMessage: 'fromMessageId: not a message of yours in this room',
      nothingToAnswer: 'regenerate: there is no message of yours to answer yet',
      tooManyBranches:
        'This chat has {{count}} branches, the most it can have. Delete one to make another.',
      waitBranch: 'Wait for the reply to finish, or stop it, before branching the chat.',
      waitDelete: 'Wait for the reply to finish, or stop it, before deleting messages.',
      waitEdit: 'Wait for the reply to finish, or stop it, before editing messages.',
      waitVersion: 'Wait for the reply to finish, or stop it, before choosing another version.',
      versionChanged: 'This reply changed meanwhile. Look at it again, then choose a version.',
      noSuggestions: 'No suggestions came to mind this time. Please try again.',
      draftFailed:
        'The model could not draft a character from this idea. Please try again, or describe it differently.',
      matureCreate: 'Turn on mature content in your settings to create a mate for adults.',
      draftNoGreeting:
        'mateId: this draft has no greeting yet. Add one in the editor before chatting with it.',
      pictureNotEditable: 'messageId: a picture cannot be edited; delete it or ask for another.',
      onlyLastReply: 'messageId: only the last reply of the room has versions to choose from.',
      versionCount: 'index: this message has {{versions}} version(s), counted from 0.',
      draftRequired: 'draft: is required to write "{{field}}" again',
      fieldFailed: 'The model could not write the {{field}} again this time. Please try again.',
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
      followSelf: 'creatorId: you cannot follow yourself',
      changedMeanwhile:
        'This mate was changed by another of your requests at the same moment. Load it again and retry.',
      quota:
        'You already have {{count}} mates, the most one account can keep. Delete one you no longer need to make room.',
      greetingPublic:
        'first_mes: a public mate needs a greeting (the first message of every chat); save it as a draft until it has one.',
      greetingPrivate:
        'first_mes: a private mate needs a greeting (the first message of every chat); save it as a draft until it has one.',
      unknownTag: 'tags: unknown tag "{{tag}}"',
    },
    portraits: {
      empty: 'image: is empty.',
      tooBig: 'image: must be at most 8 MB.',
      unreadable: 'image: is not a picture we can read (send a PNG, JPEG, WebP or GIF).',
      otherFormat: 'image: must be a PNG, JPEG, WebP or GIF picture, not {{format}}.',
      noFormat: 'image: must be a PNG, JPEG, WebP or GIF picture.',
      tooSmall:
        'image: must be at least {{min}} pixels on its short side (this one is {{width}}×{{height}}).',
      tooManyPixels: 'image: is too large to open ({{width}}×{{height}} pixels).',
      tooManyScans: 'image: is a progressive JPEG of {{scans}} passes; at most {{max}} are opened.',
      damaged: 'image: the picture is damaged or incomplete and cannot be read.',
      unknownChoice: 'choiceId: is not one of the portraits of /mate/portraitChoices.',
      unknownStyle: 'choiceId: unknown portrait style "{{style}}".',
    },
    cards: {
      notPng: 'png: This file is not a PNG image.',
      pngCut: 'png: The PNG image is cut off.',
      pngNoEnd: 'png: The PNG image has no end.',
      noCard: 'png: this image holds no character card (no "chara" text chunk).',
      unreadable: 'png: the character card in this image is not readable JSON.',
      notObject: 'The card is not a JSON object.',
      tooDeep: 'The card is nested more than {{depth}} levels deep.',
      notValid: 'The card is not valid: {{field}}: {{problem}}',
      nul: '{{field}}: must not contain the character U+0000',
    },
    pictures: {
      notSetUp: 'Pictures are not set up on this server.',
      engineDown: 'Pictures cannot be made right now: the picture engine does not answer.',
      notEnoughCoins:
        'You do not have enough gold coins for a picture. Get more in the shop, then try again.',
      notQueued: 'The picture could not be started. Your gold coins were given back.',
      notFinished: 'Only a finished picture can be shared. Wait until it is drawn.',
      notAPicture: 'messageId: is not a picture',
      unknownModel: 'model: not one of the picture models of /aigc/models.',
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
      onlyMateSpoken: 'messageId: only a mate’s message is spoken.',
      unknownVoice: 'voice: not one of the voices of /voice/voices',
      nothingToSay: 'messageId: this message has nothing to say aloud.',
      nothingToSayText: 'text: there is nothing to say aloud.',
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
    call: {
      badTicket:
        'This call could not be opened: its link is used or too old. Start the call again.',
      badAudio:
        'The recording could not be used: send a WAV file, 16-bit mono, of at most {{seconds}} seconds.',
      nothingHeard: 'Nothing was heard. Speak again.',
      waitForAnswer: 'Wait for the answer before saying more.',
      tooLong: 'text: at most {{count}} characters.',
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
      memory: 'Memory not found.',
      export: 'Download not found.',
    },
  },
  // The mails the server sends, each in its reader's language (`accounts/account-mails.ts`,
  // `privacy/privacy-mails.ts`). A link, a date or a name is filled in by interpolation.
  /**
   * Why a picture failed, as its reader is told (the engine's own detail goes to the log). Stored
   * as written here, on the picture's message or as its job's error, and found again by it in
   * the reader's language (`images/picture-messages.ts`): a sentence changed here needs the rows
   * that hold it changed too, by a migration.
   */
  pictures: {
    failures: {
      unreachable: 'The picture engine could not be reached.',
      unauthorized: 'The picture engine refused this server. Tell the server’s owner.',
      busy: 'The picture engine is busy. Try again in a little while.',
      refused: 'The picture engine refused to draw this. Try describing it differently.',
      rejected: 'The picture engine cannot draw this model or size.',
      failed: 'The picture engine failed while drawing.',
      timeout: 'The picture took too long to draw.',
      cut: 'The connection to the picture engine dropped while drawing.',
      malformed: 'The picture engine answered without a picture.',
      cancelled: 'The picture was cancelled.',
      notStored: 'The picture was drawn but could not be stored. Try again in a little while.',
    },
  },
  mails: {
    verification: {
      subject: 'Confirm your e-mail address for Mates',
      welcome: 'Welcome to Mates!',
      open: 'Confirm your e-mail address by opening this link:',
      button: 'Confirm your e-mail address',
      works: 'The link works for 24 hours. If you did not sign up, ignore this mail.',
    },
    alreadyRegistered: {
      subject: 'Someone tried to sign up to Mates with your address',
      tried:
        'Someone, maybe you, tried to create a Mates account with this e-mail address, which already has one.',
      ifYou:
        'If it was you, sign in at {{url}}/ instead (with Google or Discord if you signed up that way).',
      ifNot: 'If it was not you, ignore this mail: nothing was changed.',
    },
    resetLink: {
      subject: 'Reset your Mates password',
      asked: 'Someone, we hope you, asked to reset the password of your Mates account.',
      open: 'Choose a new password here:',
      button: 'Choose a new password',
      works:
        'The link works once, for one hour. If you did not ask, ignore this mail: your password stays as it is.',
    },
    passwordRemoved: {
      subject: 'You signed in to Mates with {{provider}}',
      signedIn: 'You just signed in to your Mates account with {{provider}}.',
      removed:
        'To keep the account yours, its password was removed and every other device was signed out: whoever chose that password may not have been you. Your mates, chats and coins are all still there.',
      again:
        'To sign in with a password again, choose "Forgot your password?" on the sign-in page and set a new one.',
    },
    dataReady: {
      subject: 'Your Mates data is ready',
      ready:
        'Your Mates data is ready to download: every chat, your mates, pictures, voice clips and the rest, in one zip file.',
      download: 'Download it from your profile, signed in to this account:',
      // The HTML's sentence: `{{link}}` is the link, its words `downloadLink`.
      downloadLink: 'Download it from your profile',
      downloadHtml: '{{link}}, signed in to this account.',
      until:
        'It can be downloaded until {{date}}; then it is removed. If you did not ask for it, change your password: someone signed in as you did.',
    },
    accountDeleted: {
      subject: 'Your Mates account was deleted',
      deleted:
        'Your Mates account was deleted, as you asked: your chats, personas, pictures, voice clips and private mates are gone, and every device was signed out.',
      again: 'You can sign up again with this address at any time, as a new member.',
    },
  },
  // What a ledger row was for (`benefit_ledger.reason_key`, its values in `reason_args`): the
  // English is stored as the row's `reason` too, for exports, the operators' commands and logs,
  // so it stays word for word. Names of packages and plans are the product's, as written.
  ledger: {
    reasons: {
      welcome: 'welcome',
      chat: 'chat',
      inspiration: 'inspiration',
      characterDraft: 'character draft',
      inspirationNothingUsable: 'inspiration: refunded, nothing usable',
      characterDraftNothingUsable: 'character draft: refunded, nothing usable',
      picture: 'picture',
      voice: 'voice',
      refundReplyAbandoned: 'refund: reply abandoned',
      refundStopped: 'refund: stopped',
      refundNoReply: 'refund: no reply',
      refundRoomDeleted: 'refund: room deleted',
      refundPictureFailed: 'refund: picture failed',
      refundPictureCancelled: 'refund: picture cancelled',
      refundPictureNotQueued: 'refund: picture not queued',
      refundVoiceFailed: 'refund: voice failed',
      refundVoiceUnplayed: 'refund: voice dropped unplayed',
      operatorGift: 'gift from the operator',
      package: '{{name}}',
      planFirstMonth: '{{name}} plan, first month',
      planFirstYear: '{{name}} plan, first year',
      planRenewed: '{{name}} plan renewed',
      paymentRefunded: 'payment refunded: {{what}}',
      paymentRefundedSpent: 'payment refunded: {{what}} ({{spent}} already spent)',
      chargebackLost: 'chargeback lost: {{what}}',
      chargebackLostSpent: 'chargeback lost: {{what}} ({{spent}} already spent)',
    },
    // The parts a reason is said with.
    parts: {
      plan: '{{name}} plan',
      chats_one: '{{count}} chat',
      chats_other: '{{count}} chats',
      goldCoins_one: '{{count}} gold coin',
      goldCoins_other: '{{count}} gold coins',
      both: '{{chats}} and {{goldCoins}}',
    },
  },
} as const;
