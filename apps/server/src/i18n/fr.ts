import type { Texts } from './texts';

/** The server's own sentences for people, in French (addressing them as « tu », as the app does). */
export const fr: Texts = {
  reply: {
    unavailable: 'Le modèle n’est pas disponible pour le moment. Réessaie plus tard.',
    loading: 'Le modèle est encore en train de démarrer. Renvoie ton message dans un instant.',
    unreachable: 'Le modèle est injoignable pour le moment. Réessaie dans un instant.',
    busy: 'Le modèle est occupé. Réessaie dans un instant.',
    failed: 'Le modèle n’a pas pu répondre pour le moment. Réessaie dans un instant.',
    timeout: 'Le modèle a mis trop de temps à répondre. Réessaie.',
    cut: 'La réponse s’est arrêtée avant la fin. Ce qui est arrivé est conservé.',
    empty: 'Le modèle n’a envoyé aucune réponse. Ton chat t’a été rendu.',
    notSaved: 'La réponse n’a pas pu être enregistrée. Réessaie.',
    gone: 'Cette discussion a été supprimée pendant que la réponse s’écrivait.',
    internal: 'La réponse n’a pas pu être terminée. Ce qui est arrivé est conservé.',
    shutdown:
      'Le serveur redémarre. Ce qui est arrivé est conservé ; renvoie ton message dans un instant.',
  },
  room: {
    readOnly: 'Ce mate n’est plus disponible. Tu peux relire ce chat, mais pas le poursuivre.',
    groupGone:
      'Aucun mate de ce groupe n’est plus disponible. Tu peux relire ce chat, mais pas le poursuivre.',
    speakerGone: '{{name}} n’est plus disponible : ce qu’il a vu n’est pas montré.',
  },
  memory: {
    tooMany:
      'Ce chat retient au plus {{count}} choses. Oublie-en une avant d’en ajouter une autre.',
    writing:
      'Les souvenirs des anciens messages n’ont pas pu être écrits : le modèle n’a pas répondu. Réessaie dans un instant.',
    unreadable:
      'Les souvenirs des anciens messages n’ont pas pu être écrits : le modèle a répondu autre chose qu’une liste de souvenirs. Réessaie.',
  },
  fields: {
    email: 'adresse e-mail',
    password: 'mot de passe',
    oldPassword: 'mot de passe actuel',
    newPassword: 'nouveau mot de passe',
    nickname: 'nom',
    name: 'nom',
    content: 'message',
    first_mes: 'message d’accueil',
  },
  fieldErrors: {
    required: 'est obligatoire',
    email: 'doit être une adresse e-mail',
    atLeast: 'doit compter au moins {{number}} caractères',
    atMost: 'doit compter au plus {{number}} caractères',
    onlySpaces: 'ne peut pas être fait que d’espaces',
    guessable:
      'est trop facile à deviner (un mot de passe courant, un motif ou ton adresse) ; quelques mots peu courants en font un solide',
    nul: 'ne peut pas contenir le caractère U+0000',
    hidden: 'ne peut pas contenir de caractères de contrôle ou invisibles',
    picture: 'doit être une adresse https: ou une image envoyée ici',
    oldDefault: 'ne peut pas être le début de ton adresse e-mail',
  },
  notices: {
    privacy: {
      exportFailed: 'Tes données n’ont pas pu être rassemblées. Redemande-les.',
      proofNeeded:
        'Confirme d’abord que c’est toi : saisis ton mot de passe, ou reconnecte-toi avec Google ou Discord.',
      wrongPassword: 'Le mot de passe n’est pas le bon.',
      otherAccount:
        'Cette connexion est celle d’un autre compte. Utilise le compte que tu supprimes.',
    },
    server: {
      internal: 'Un problème est survenu de notre côté. Réessaie.',
      storage:
        'Les fichiers enregistrés (portraits, images, voix) sont injoignables pour le moment. Réessaie dans un instant.',
      full: 'Le serveur n’a plus d’espace de stockage. Réessaie plus tard.',
    },
    account: {
      wrongPassword: 'Adresse e-mail ou mot de passe incorrect.',
      confirmEmail: 'Confirme d’abord ton adresse e-mail : ouvre le lien que nous t’avons envoyé.',
      currentPassword: 'Le mot de passe actuel n’est pas le bon.',
      noPassword:
        'Ce compte se connecte avec Google ou Discord et n’a pas encore de mot de passe. Pour en choisir un, demande un lien de réinitialisation à son adresse.',
      resetLinkDead:
        'Ce lien de réinitialisation a expiré ou a déjà servi. Demandes-en un nouveau.',
      googleNotSetUp: 'La connexion avec Google n’est pas configurée sur ce serveur.',
      googleNotConfirmed: 'Google n’a pas pu confirmer cette connexion. Réessaie.',
      googleNoEmail: 'Ton compte Google n’a pas d’adresse e-mail vérifiée.',
      discordNotSetUp: 'La connexion avec Discord n’est pas configurée sur ce serveur.',
      discordNotConfirmed: 'Discord n’a pas pu confirmer cette connexion. Réessaie.',
      discordTimeout: 'Discord n’a pas répondu à temps. Réessaie plus tard.',
      discordUnreachable: 'Discord est injoignable. Réessaie plus tard.',
      discordUnreadable: 'Discord a envoyé une réponse illisible. Réessaie plus tard.',
      discordNoEmail: 'Ton compte Discord n’a pas d’adresse e-mail vérifiée.',
      personaLimit:
        'Tu peux avoir au plus {{count}} personas. Supprimes-en une pour faire de la place.',
    },
    limits: {
      second: 'Trop de tentatives. Réessaie dans {{count}} seconde.',
      seconds: 'Trop de tentatives. Réessaie dans {{count}} secondes.',
      minutes: 'Trop de tentatives. Réessaie dans {{count}} minutes.',
    },
    balance: {
      dailyCap:
        'Tu as atteint ta limite de dépense quotidienne. Elle repart à zéro à minuit UTC, ou relève-la sur ta page d’abonnement.',
      noChatsLeft: 'Il ne te reste plus de chats. Obtiens-en d’autres sur la page d’abonnement.',
    },
    group: {
      busy: 'Attends que les mates aient fini, ou arrête-les, avant de changer qui est dans le groupe.',
      speakerLeft:
        '{{name}} a quitté le groupe : sa réponse reste telle quelle. Laisse plutôt parler un autre mate.',
      acrossChatsPerMate:
        'roomId : se souvenir de moi dans tous les chats se règle dans un chat avec un seul mate ; dans un groupe, chaque mate apporte ce qu’il sait de toi.',
      unknownMate: 'mateIds : aucun mate avec qui tu peux discuter ne porte cet id.',
      twice: 'mateIds : un mate ne peut être qu’une fois dans un groupe.',
      notGroup: 'roomId : ce chat n’est pas un chat de groupe.',
      notMember: 'mateId : ce mate n’est pas dans le groupe.',
      alreadyMember: 'mateId : ce mate est déjà dans le groupe.',
      badOrder: 'order : indique chaque mate du groupe une fois, à sa nouvelle place.',
      full: 'Un groupe compte au plus {{count}} mates. Retire-en un pour en inviter un autre.',
      tooFew:
        'Un groupe a besoin d’au moins {{count}} mates. Invites-en un autre avant de retirer celui-ci.',
      talkedEnough:
        'Les mates discutent entre eux depuis un moment. Écris quelque chose pour continuer.',
    },
    chat: {
      replyInProgress: 'Une réponse est encore en cours d’écriture dans ce chat.',
      locksUnavailable:
        'Impossible de commencer ou de modifier un chat pour le moment. Réessaie dans un instant.',
      notYourMessage: 'fromMessageId : ce n’est pas un de tes messages dans ce chat',
      nothingToAnswer: 'regenerate : tu n’as encore aucun message auquel répondre',
      tooManyBranches:
        'Ce chat a {{count}} branches, le maximum. Supprime-en une pour en créer une autre.',
      waitBranch: 'Attends la fin de la réponse, ou arrête-la, avant de créer une branche du chat.',
      waitDelete: 'Attends la fin de la réponse, ou arrête-la, avant de supprimer des messages.',
      waitEdit: 'Attends la fin de la réponse, ou arrête-la, avant de modifier des messages.',
      waitVersion:
        'Attends la fin de la réponse, ou arrête-la, avant de choisir une autre version.',
      versionChanged:
        'Cette réponse a changé entre-temps. Regarde-la à nouveau, puis choisis une version.',
      noSuggestions: 'Aucune suggestion ne nous est venue cette fois. Réessaie.',
      draftFailed:
        'Le modèle n’a pas pu rédiger de personnage à partir de cette idée. Réessaie, ou décris-la autrement.',
      matureCreate:
        'Active le contenu pour adultes dans tes réglages pour créer un mate pour adultes.',
      draftNoGreeting:
        'mateId : ce brouillon n’a pas encore de message d’accueil. Ajoute-en un dans l’éditeur avant de discuter avec lui.',
      pictureNotEditable:
        'messageId : une image ne peut pas être modifiée ; supprime-la ou demandes-en une autre.',
      onlyLastReply:
        'messageId : seule la dernière réponse du chat a des versions entre lesquelles choisir.',
      versionCount: 'index : ce message a {{versions}} version(s), comptées à partir de 0.',
      draftRequired: 'draft : est obligatoire pour réécrire « {{field}} »',
      fieldFailed: 'Le modèle n’a pas pu réécrire le champ {{field}} cette fois. Réessaie.',
    },
    mates: {
      matureView:
        'Ce mate est réservé aux adultes. Active le contenu pour adultes dans tes réglages pour le voir.',
      ownReview: 'Tu ne peux pas donner ton avis sur ton propre mate.',
      ownReport: 'Tu ne peux pas signaler ton propre mate.',
      hiddenPublic:
        'Les modérateurs ont masqué ce mate : il ne peut donc pas être rendu public. Leur motif figure sur sa page.',
      hiddenExport:
        'Les modérateurs ont masqué ce mate : sa fiche ne peut donc pas être exportée. Leur motif figure sur sa page.',
      adminsOnly: 'Seuls les administrateurs peuvent modérer les signalements.',
      followSelf: 'creatorId : tu ne peux pas te suivre toi-même',
      changedMeanwhile:
        'Une autre de tes requêtes a modifié ce mate au même moment. Recharge-le et réessaie.',
      quota:
        'Tu as déjà {{count}} mates, le maximum pour un compte. Supprime-en un dont tu n’as plus besoin pour faire de la place.',
      greetingPublic:
        'first_mes : un mate public a besoin d’un message d’accueil (le premier message de chaque chat) ; enregistre-le comme brouillon en attendant.',
      greetingPrivate:
        'first_mes : un mate privé a besoin d’un message d’accueil (le premier message de chaque chat) ; enregistre-le comme brouillon en attendant.',
      unknownTag: 'tags : tag inconnu « {{tag}} »',
    },
    portraits: {
      empty: 'image : est vide.',
      tooBig: 'image : doit faire au plus 8 Mo.',
      unreadable:
        'image : n’est pas une image que nous savons lire (envoie un PNG, JPEG, WebP ou GIF).',
      otherFormat: 'image : doit être une image PNG, JPEG, WebP ou GIF, pas {{format}}.',
      noFormat: 'image : doit être une image PNG, JPEG, WebP ou GIF.',
      tooSmall:
        'image : doit faire au moins {{min}} pixels sur son petit côté (celle-ci fait {{width}}×{{height}}).',
      tooManyPixels: 'image : est trop grande pour être ouverte ({{width}}×{{height}} pixels).',
      tooManyScans:
        'image : est un JPEG progressif de {{scans}} passes ; au plus {{max}} sont ouvertes.',
      damaged: 'image : l’image est abîmée ou incomplète et ne peut pas être lue.',
      unknownChoice: 'choiceId : n’est pas un des portraits de /mate/portraitChoices.',
      unknownStyle: 'choiceId : style de portrait inconnu « {{style}} ».',
    },
    cards: {
      notPng: 'png : ce fichier n’est pas une image PNG.',
      pngCut: 'png : l’image PNG est tronquée.',
      pngNoEnd: 'png : l’image PNG n’a pas de fin.',
      noCard:
        'png : cette image ne contient aucune fiche de personnage (pas de bloc de texte « chara »).',
      unreadable: 'png : la fiche de personnage de cette image n’est pas un JSON lisible.',
      notObject: 'La fiche n’est pas un objet JSON.',
      tooDeep: 'La fiche est imbriquée sur plus de {{depth}} niveaux.',
      notValid: 'La fiche n’est pas valide : {{field}} : {{problem}}',
      nul: '{{field}} : ne peut pas contenir le caractère U+0000',
    },
    pictures: {
      notSetUp: 'Les images ne sont pas configurées sur ce serveur.',
      engineDown:
        'Impossible de créer des images pour le moment : le moteur d’images ne répond pas.',
      notEnoughCoins:
        'Tu n’as pas assez de pièces d’or pour une image. Obtiens-en d’autres dans la boutique, puis réessaie.',
      notQueued: 'L’image n’a pas pu être lancée. Tes pièces d’or t’ont été rendues.',
      notFinished: 'Seule une image terminée peut être partagée. Attends qu’elle soit dessinée.',
      notAPicture: 'messageId : n’est pas une image',
      unknownModel: 'model : n’est pas un des modèles d’image de /aigc/models.',
    },
    voice: {
      notSetUp: 'La voix n’est pas configurée sur ce serveur.',
      notEnoughCoins:
        'Tu n’as pas assez de pièces d’or pour écouter ce message. Obtiens-en d’autres dans la boutique, puis réessaie.',
      waitListen: 'Attends la fin de la réponse avant de l’écouter.',
      notMade: 'Cette voix n’a pas pu être créée. Tes pièces d’or t’ont été rendues.',
      notReady:
        'La voix se prépare sur ce serveur (son modèle est encore en chargement). Réessaie d’ici peu.',
      unavailable:
        'La voix n’est pas disponible pour le moment. Préviens la personne qui gère ce serveur.',
      unreachable: 'Le moteur de voix est injoignable.',
      unauthorized:
        'Le moteur de voix a refusé ce serveur. Préviens la personne qui gère ce serveur.',
      busy: 'Le moteur de voix est occupé. Réessaie d’ici peu.',
      rejected: 'Le moteur de voix ne peut pas lire ce texte avec cette voix.',
      failed: 'Le moteur de voix a échoué pendant la lecture.',
      timeout: 'La voix a mis trop de temps à être créée.',
      cut: 'La connexion au moteur de voix a été coupée pendant la lecture.',
      malformed: 'Le moteur de voix a répondu sans audio.',
      cancelled: 'La voix a été annulée.',
      onlyMateSpoken: 'messageId : seuls les messages d’un mate sont lus à voix haute.',
      unknownVoice: 'voice : ce n’est pas une des voix de /voice/voices',
      nothingToSay: 'messageId : ce message n’a rien à dire à voix haute.',
      nothingToSayText: 'text : il n’y a rien à dire à voix haute.',
    },
    transcription: {
      notSetUp: 'La dictée vocale n’est pas configurée sur ce serveur.',
      unreachable: 'Le moteur de dictée est injoignable. Réessaie plus tard, ou tape ton message.',
      unauthorized:
        'Le moteur de dictée a refusé ce serveur. Préviens la personne qui gère ce serveur.',
      busy: 'Le moteur de dictée est occupé. Réessaie d’ici peu.',
      rejected:
        'Le moteur de dictée n’a pas pu utiliser cet enregistrement. Enregistre-toi à nouveau.',
      failed: 'Le moteur de dictée a échoué pendant l’écoute. Réessaie.',
      timeout: 'L’enregistrement a mis trop de temps à être transcrit. Essaie plus court.',
      cut: 'La connexion au moteur de dictée a été coupée. Réessaie.',
      malformed: 'Le moteur de dictée a répondu sans aucun texte. Réessaie.',
      cancelled: 'L’enregistrement n’a pas été transcrit : il a été annulé.',
    },
    call: {
      badTicket:
        'Cet appel n’a pas pu s’ouvrir : son lien a déjà servi ou est trop ancien. Rappelez.',
      badAudio:
        'L’enregistrement est inutilisable : envoyez un fichier WAV, mono 16 bits, de {{seconds}} secondes au plus.',
      nothingHeard: 'Rien n’a été entendu. Parlez de nouveau.',
      waitForAnswer: 'Attendez la réponse avant d’en dire plus.',
      tooLong: 'text : {{count}} caractères au plus.',
    },
    payments: {
      notSetUp: 'Les paiements ne sont pas configurés sur ce serveur.',
      free: 'Cette offre est gratuite : il n’y a rien à payer.',
      planHeld:
        'Tu as déjà une formule. Annule-la sur ta page d’abonnement avant d’en choisir une autre.',
      checkoutStarting:
        'Ton autre paiement est encore en cours d’ouverture. Réessaie dans un instant.',
      noPlan: 'Tu n’as aucune formule à modifier.',
      unreachable:
        'Le service de paiement est injoignable pour le moment. Réessaie dans une minute.',
    },
    notFound: {
      mate: 'Mate introuvable.',
      message: 'Message introuvable.',
      persona: 'Persona introuvable.',
      picture: 'Image introuvable.',
      creator: 'Créateur introuvable.',
      room: 'Chat introuvable.',
      package: 'Offre introuvable.',
      checkout: 'Paiement introuvable.',
      memory: 'Souvenir introuvable.',
      export: 'Téléchargement introuvable.',
    },
  },
  pictures: {
    failures: {
      unreachable: 'Le moteur d’images est injoignable.',
      unauthorized:
        'Le moteur d’images a refusé ce serveur. Préviens la personne qui gère ce serveur.',
      busy: 'Le moteur d’images est occupé. Réessaie dans un moment.',
      refused: 'Le moteur d’images a refusé de dessiner ceci. Essaie de le décrire autrement.',
      rejected: 'Le moteur d’images ne peut pas dessiner avec ce modèle ou cette taille.',
      failed: 'Le moteur d’images a échoué pendant le dessin.',
      timeout: 'L’image a mis trop de temps à être dessinée.',
      cut: 'La connexion au moteur d’images a été coupée pendant le dessin.',
      malformed: 'Le moteur d’images a répondu sans image.',
      cancelled: 'L’image a été annulée.',
      notStored:
        'L’image a été dessinée mais n’a pas pu être enregistrée. Réessaie dans un moment.',
    },
  },
  mails: {
    verification: {
      subject: 'Confirme ton adresse e-mail pour Mates',
      welcome: 'Bienvenue sur Mates !',
      open: 'Confirme ton adresse e-mail en ouvrant ce lien :',
      button: 'Confirme ton adresse e-mail',
      works:
        'Le lien fonctionne pendant 24 heures. Si tu n’as pas créé de compte, ignore cet e-mail.',
    },
    alreadyRegistered: {
      subject: 'Quelqu’un a essayé de s’inscrire sur Mates avec ton adresse',
      tried:
        'Quelqu’un, peut-être toi, a essayé de créer un compte Mates avec cette adresse e-mail, qui en a déjà un.',
      ifYou:
        'Si c’était toi, connecte-toi plutôt sur {{url}}/ (avec Google ou Discord si c’est ainsi que tu as créé ton compte).',
      ifNot: 'Si ce n’était pas toi, ignore cet e-mail : rien n’a été modifié.',
    },
    resetLink: {
      subject: 'Réinitialise ton mot de passe Mates',
      asked:
        'Quelqu’un, toi nous l’espérons, a demandé à réinitialiser le mot de passe de ton compte Mates.',
      open: 'Choisis un nouveau mot de passe ici :',
      button: 'Choisis un nouveau mot de passe',
      works:
        'Le lien ne sert qu’une fois, pendant une heure. Si tu n’as rien demandé, ignore cet e-mail : ton mot de passe reste le même.',
    },
    passwordRemoved: {
      subject: 'Nouvelle connexion à Mates avec {{provider}}',
      signedIn: 'Tu viens de te connecter à ton compte Mates avec {{provider}}.',
      removed:
        'Pour que le compte reste le tien, son mot de passe a été supprimé et tous tes autres appareils ont été déconnectés : la personne qui avait choisi ce mot de passe n’était peut-être pas toi. Tes mates, conversations et pièces sont toujours là.',
      again:
        'Pour te connecter de nouveau avec un mot de passe, clique sur « Mot de passe oublié ? » sur la page de connexion et choisis-en un nouveau.',
    },
    dataReady: {
      subject: 'Tes données Mates sont prêtes',
      ready:
        'Tes données Mates sont prêtes à télécharger : chaque conversation, tes mates, images, extraits vocaux et tout le reste, dans un seul fichier zip.',
      download: 'Télécharge-les depuis ton profil, en te connectant à ce compte :',
      downloadLink: 'Télécharge-les depuis ton profil',
      downloadHtml: '{{link}}, en te connectant à ce compte.',
      until:
        'Tu peux les télécharger jusqu’au {{date}} ; ensuite, elles sont supprimées. Si tu ne les as pas demandées, change ton mot de passe : quelqu’un s’est connecté à ta place.',
    },
    accountDeleted: {
      subject: 'Ton compte Mates a été supprimé',
      deleted:
        'Ton compte Mates a été supprimé, comme tu l’as demandé : tes conversations, personas, images, extraits vocaux et mates privés ont disparu, et tous tes appareils ont été déconnectés.',
      again: 'Tu peux te réinscrire avec cette adresse à tout moment, comme nouveau membre.',
    },
  },
  ledger: {
    reasons: {
      welcome: 'cadeau de bienvenue',
      chat: 'réponse',
      inspiration: 'idées',
      characterDraft: 'brouillon de personnage',
      inspirationNothingUsable: 'idées : rendu, rien d’utilisable',
      characterDraftNothingUsable: 'brouillon de personnage : rendu, rien d’utilisable',
      picture: 'image',
      voice: 'voix',
      refundReplyAbandoned: 'remboursement : réponse abandonnée',
      refundStopped: 'remboursement : réponse arrêtée',
      refundNoReply: 'remboursement : aucune réponse',
      refundRoomDeleted: 'remboursement : chat supprimé',
      refundPictureFailed: 'remboursement : l’image a échoué',
      refundPictureCancelled: 'remboursement : image annulée',
      refundPictureNotQueued: 'remboursement : l’image n’a pas pu démarrer',
      refundVoiceFailed: 'remboursement : la voix a échoué',
      refundVoiceUnplayed: 'remboursement : voix abandonnée sans être écoutée',
      operatorGift: 'cadeau de la personne qui gère ce serveur',
      package: '{{name}}',
      planFirstMonth: 'formule {{name}}, premier mois',
      planFirstYear: 'formule {{name}}, première année',
      planRenewed: 'formule {{name}} renouvelée',
      paymentRefunded: 'paiement remboursé : {{what}}',
      paymentRefundedSpent: 'paiement remboursé : {{what}} (tu avais déjà dépensé {{spent}})',
      chargebackLost: 'rétrofacturation : {{what}}',
      chargebackLostSpent: 'rétrofacturation : {{what}} (tu avais déjà dépensé {{spent}})',
    },
    parts: {
      plan: 'formule {{name}}',
      chats_one: '{{count}} chat',
      chats_other: '{{count}} chats',
      goldCoins_one: '{{count}} pièce d’or',
      goldCoins_other: '{{count}} pièces d’or',
      both: '{{chats}} et {{goldCoins}}',
    },
  },
};
