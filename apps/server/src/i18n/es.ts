import type { Texts } from './texts';

/** The server's own sentences for people, in Spanish. */
export const es: Texts = {
  reply: {
    unavailable: 'El modelo no está disponible ahora. Inténtalo de nuevo más tarde.',
    loading: 'El modelo todavía se está iniciando. Vuelve a enviarlo en un momento.',
    unreachable: 'No se puede contactar con el modelo ahora. Inténtalo de nuevo en un momento.',
    busy: 'El modelo está ocupado. Inténtalo de nuevo en un momento.',
    failed: 'El modelo no pudo responder ahora. Inténtalo de nuevo en un momento.',
    timeout: 'El modelo tardó demasiado en responder. Inténtalo de nuevo.',
    cut: 'La respuesta se detuvo antes de terminar. Se conserva lo que llegó.',
    empty: 'El modelo no envió ninguna respuesta. Se te ha devuelto el chat.',
    notSaved: 'No se pudo guardar la respuesta. Inténtalo de nuevo.',
    gone: 'Este chat se borró mientras se escribía la respuesta.',
    internal: 'No se pudo terminar la respuesta. Se conserva lo que llegó.',
    shutdown:
      'El servidor se está reiniciando. Se conserva lo que llegó; vuelve a enviarlo en un momento.',
  },
  room: {
    readOnly: 'Este mate ya no está disponible. Puedes leer este chat, pero no continuarlo.',
    groupGone:
      'Ningún mate de este grupo está ya disponible. Puedes leer este chat, pero no continuarlo.',
    speakerGone: '{{name}} ya no está disponible: lo que vio no se muestra.',
  },
  memory: {
    tooMany: 'Este chat recuerda como máximo {{count}} cosas. Olvida una antes de añadir otra.',
    writing:
      'No se pudieron escribir recuerdos de los mensajes antiguos: el modelo no respondió. Inténtalo de nuevo en un momento.',
    unreadable:
      'No se pudieron escribir recuerdos de los mensajes antiguos: el modelo respondió algo que no era una lista de recuerdos. Inténtalo de nuevo.',
  },
  fields: {
    email: 'correo',
    password: 'contraseña',
    oldPassword: 'contraseña actual',
    newPassword: 'contraseña nueva',
    nickname: 'nombre',
    name: 'nombre',
    content: 'mensaje',
    first_mes: 'saludo',
  },
  fieldErrors: {
    required: 'es obligatorio',
    email: 'debe ser una dirección de correo',
    atLeast: 'debe tener al menos {{number}} caracteres',
    atMost: 'debe tener como máximo {{number}} caracteres',
    onlySpaces: 'no puede ser solo espacios',
    guessable:
      'es demasiado fácil de adivinar (una contraseña común, un patrón o tu dirección); unas cuantas palabras poco comunes hacen una fuerte',
    nul: 'no puede contener el carácter U+0000',
    hidden: 'no puede contener caracteres de control o invisibles',
    picture: 'debe ser una dirección https: o una imagen subida aquí',
    oldDefault: 'no puede ser el principio de tu dirección de correo',
  },
  notices: {
    privacy: {
      exportFailed: 'No se pudieron reunir tus datos. Pídelos de nuevo.',
      proofNeeded:
        'Primero confirma que eres tú: escribe tu contraseña o vuelve a iniciar sesión con Google o Discord.',
      wrongPassword: 'La contraseña no es correcta.',
      otherAccount: 'Ese inicio de sesión es de otra cuenta. Usa la cuenta que vas a eliminar.',
    },
    server: {
      internal: 'Algo falló por nuestra parte. Inténtalo de nuevo.',
      storage:
        'Ahora no se puede acceder a los archivos guardados (retratos, imágenes, voz). Inténtalo de nuevo en un momento.',
      full: 'El servidor se ha quedado sin espacio de almacenamiento. Inténtalo de nuevo más tarde.',
    },
    account: {
      wrongPassword: 'Correo electrónico o contraseña incorrectos.',
      confirmEmail: 'Primero confirma tu correo electrónico: abre el enlace que te enviamos.',
      currentPassword: 'La contraseña actual no es correcta.',
      noPassword:
        'Esta cuenta inicia sesión con Google o Discord y aún no tiene contraseña. Para crear una, pide un enlace de restablecimiento a su dirección.',
      resetLinkDead: 'Este enlace de restablecimiento ha caducado o ya se usó. Pide uno nuevo.',
      googleNotSetUp: 'El inicio de sesión con Google no está configurado en este servidor.',
      googleNotConfirmed: 'Google no pudo confirmar este inicio de sesión. Inténtalo de nuevo.',
      googleNoEmail: 'Tu cuenta de Google no tiene un correo electrónico verificado.',
      discordNotSetUp: 'El inicio de sesión con Discord no está configurado en este servidor.',
      discordNotConfirmed: 'Discord no pudo confirmar este inicio de sesión. Inténtalo de nuevo.',
      discordTimeout: 'Discord no respondió a tiempo. Inténtalo más tarde.',
      discordUnreachable: 'No se pudo contactar con Discord. Inténtalo más tarde.',
      discordUnreadable: 'Discord envió una respuesta que no pudimos leer. Inténtalo más tarde.',
      discordNoEmail: 'Tu cuenta de Discord no tiene un correo electrónico verificado.',
      personaLimit: 'Puedes tener como máximo {{count}} personas. Borra una para hacer sitio.',
    },
    limits: {
      second: 'Demasiados intentos. Inténtalo de nuevo en {{count}} segundo.',
      seconds: 'Demasiados intentos. Inténtalo de nuevo en {{count}} segundos.',
      minutes: 'Demasiados intentos. Inténtalo de nuevo en {{count}} minutos.',
    },
    balance: {
      dailyCap:
        'Has alcanzado tu límite de gasto diario. Se reinicia a medianoche UTC, o súbelo en tu página de suscripción.',
      noChatsLeft: 'No te quedan chats. Consigue más en la página de suscripción.',
    },
    group: {
      busy: 'Espera a que los mates terminen, o detenlos, antes de cambiar quién está en el grupo.',
      speakerLeft:
        '{{name}} dejó el grupo: su respuesta se queda como está. Deja hablar a otro mate.',
      acrossChatsPerMate:
        'roomId: recordarme en todos los chats se activa en un chat con un solo mate; en un grupo, cada mate trae lo que sabe de ti.',
      unknownMate: 'mateIds: no hay ningún mate con el que puedas chatear con este id.',
      twice: 'mateIds: un mate solo puede estar una vez en un grupo.',
      notGroup: 'roomId: este chat no es un chat de grupo.',
      notMember: 'mateId: este mate no está en el grupo.',
      alreadyMember: 'mateId: este mate ya está en el grupo.',
      badOrder: 'order: indica cada mate del grupo una vez, en su nuevo lugar.',
      full: 'Un grupo tiene como máximo {{count}} mates. Quita uno para invitar a otro.',
      tooFew: 'Un grupo necesita al menos {{count}} mates. Invita a otro antes de quitar este.',
      talkedEnough: 'Los mates llevan un rato hablando entre ellos. Escribe algo para seguir.',
    },
    chat: {
      replyInProgress: 'Todavía se está escribiendo una respuesta en esta sala.',
      locksUnavailable:
        'Ahora mismo no se pueden empezar ni cambiar chats. Inténtalo de nuevo en un momento.',
      notYourMessage: 'fromMessageId: no es un mensaje tuyo de esta sala',
      nothingToAnswer: 'regenerate: todavía no hay ningún mensaje tuyo que responder',
      tooManyBranches: 'Este chat tiene {{count}} ramas, el máximo. Borra una para crear otra.',
      waitBranch: 'Espera a que termine la respuesta, o detenla, antes de ramificar el chat.',
      waitDelete: 'Espera a que termine la respuesta, o detenla, antes de eliminar mensajes.',
      waitEdit: 'Espera a que termine la respuesta, o detenla, antes de editar mensajes.',
      waitVersion: 'Espera a que termine la respuesta, o detenla, antes de elegir otra versión.',
      versionChanged: 'Esta respuesta cambió mientras tanto. Vuelve a mirarla y elige una versión.',
      noSuggestions: 'Esta vez no se nos ocurrió ninguna sugerencia. Inténtalo de nuevo.',
      draftFailed:
        'El modelo no pudo crear un personaje a partir de esta idea. Inténtalo de nuevo o descríbela de otra forma.',
      matureCreate:
        'Activa el contenido para adultos en tus ajustes para crear un mate para adultos.',
      draftNoGreeting:
        'mateId: este borrador aún no tiene saludo. Añade uno en el editor antes de chatear con él.',
      pictureNotEditable: 'messageId: una imagen no se puede editar; bórrala o pide otra.',
      onlyLastReply:
        'messageId: solo la última respuesta del chat tiene versiones entre las que elegir.',
      versionCount: 'index: este mensaje tiene {{versions}} versión(es), contadas desde 0.',
      draftRequired: 'draft: es obligatorio para volver a escribir "{{field}}"',
      fieldFailed:
        'El modelo no ha podido volver a escribir el campo {{field}} esta vez. Inténtalo de nuevo.',
    },
    mates: {
      matureView:
        'Este mate es para adultos. Activa el contenido para adultos en tus ajustes para verlo.',
      ownReview: 'No puedes reseñar tu propio mate.',
      ownReport: 'No puedes denunciar tu propio mate.',
      hiddenPublic:
        'Los moderadores ocultaron este mate, así que no puede hacerse público. Su motivo aparece en su página.',
      hiddenExport:
        'Los moderadores ocultaron este mate, así que su ficha no puede exportarse. Su motivo aparece en su página.',
      adminsOnly: 'Solo los administradores pueden moderar denuncias.',
      followSelf: 'creatorId: no puedes seguirte a ti mismo',
      changedMeanwhile:
        'Otra de tus solicitudes cambió este mate en el mismo momento. Vuelve a cargarlo e inténtalo de nuevo.',
      quota:
        'Ya tienes {{count}} mates, el máximo que puede tener una cuenta. Borra uno que ya no necesites para hacer sitio.',
      greetingPublic:
        'first_mes: un mate público necesita un saludo (el primer mensaje de cada chat); guárdalo como borrador hasta que lo tenga.',
      greetingPrivate:
        'first_mes: un mate privado necesita un saludo (el primer mensaje de cada chat); guárdalo como borrador hasta que lo tenga.',
      unknownTag: 'tags: etiqueta desconocida "{{tag}}"',
    },
    portraits: {
      empty: 'image: está vacía.',
      tooBig: 'image: debe ocupar como máximo 8 MB.',
      unreadable: 'image: no es una imagen que podamos leer (envía un PNG, JPEG, WebP o GIF).',
      otherFormat: 'image: debe ser una imagen PNG, JPEG, WebP o GIF, no {{format}}.',
      noFormat: 'image: debe ser una imagen PNG, JPEG, WebP o GIF.',
      tooSmall:
        'image: debe medir al menos {{min}} píxeles en su lado corto (esta mide {{width}}×{{height}}).',
      tooManyPixels: 'image: es demasiado grande para abrirla ({{width}}×{{height}} píxeles).',
      tooManyScans:
        'image: es un JPEG progresivo de {{scans}} pasadas; se abren como máximo {{max}}.',
      damaged: 'image: la imagen está dañada o incompleta y no se puede leer.',
      unknownChoice: 'choiceId: no es uno de los retratos de /mate/portraitChoices.',
      unknownStyle: 'choiceId: estilo de retrato desconocido "{{style}}".',
    },
    cards: {
      notPng: 'png: Este archivo no es una imagen PNG.',
      pngCut: 'png: La imagen PNG está cortada.',
      pngNoEnd: 'png: La imagen PNG no tiene final.',
      noCard:
        'png: esta imagen no contiene ninguna ficha de personaje (no hay bloque de texto "chara").',
      unreadable: 'png: la ficha de personaje de esta imagen no es un JSON legible.',
      notObject: 'La ficha no es un objeto JSON.',
      tooDeep: 'La ficha está anidada a más de {{depth}} niveles de profundidad.',
      notValid: 'La ficha no es válida: {{field}}: {{problem}}',
      nul: '{{field}}: no puede contener el carácter U+0000',
    },
    pictures: {
      notSetUp: 'Las imágenes no están configuradas en este servidor.',
      engineDown: 'Ahora no se pueden crear imágenes: el motor de imágenes no responde.',
      notEnoughCoins:
        'No tienes suficientes monedas de oro para una imagen. Consigue más en la tienda y vuelve a intentarlo.',
      notQueued: 'No se pudo empezar la imagen. Se te devolvieron las monedas de oro.',
      notFinished: 'Solo se puede compartir una imagen terminada. Espera a que esté dibujada.',
      notAPicture: 'messageId: no es una imagen',
      unknownModel: 'model: no es uno de los modelos de imagen de /aigc/models.',
    },
    voice: {
      notSetUp: 'La voz no está configurada en este servidor.',
      notEnoughCoins:
        'No tienes suficientes monedas de oro para escuchar este mensaje. Consigue más en la tienda y vuelve a intentarlo.',
      waitListen: 'Espera a que termine la respuesta antes de escucharla.',
      notMade: 'No se pudo crear esta voz. Se te devolvieron las monedas de oro.',
      notReady:
        'La voz se está preparando en este servidor (su modelo todavía se está cargando). Inténtalo de nuevo en un rato.',
      unavailable: 'La voz no está disponible ahora. Avisa a quien administra el servidor.',
      unreachable: 'No se pudo contactar con el motor de voz.',
      unauthorized: 'El motor de voz rechazó este servidor. Avisa a quien administra el servidor.',
      busy: 'El motor de voz está ocupado. Inténtalo de nuevo en un rato.',
      rejected: 'El motor de voz no puede decir este texto con esta voz.',
      failed: 'El motor de voz falló mientras hablaba.',
      timeout: 'La voz tardó demasiado en crearse.',
      cut: 'La conexión con el motor de voz se cortó mientras hablaba.',
      malformed: 'El motor de voz respondió sin audio.',
      cancelled: 'La voz se canceló.',
      onlyMateSpoken: 'messageId: solo se leen en voz alta los mensajes de un mate.',
      unknownVoice: 'voice: no es una de las voces de /voice/voices',
      nothingToSay: 'messageId: este mensaje no tiene nada que decir en voz alta.',
      nothingToSayText: 'text: no hay nada que decir en voz alta.',
    },
    transcription: {
      notSetUp: 'El dictado por voz no está configurado en este servidor.',
      unreachable:
        'No se pudo contactar con el motor de dictado. Inténtalo más tarde o escribe tu mensaje.',
      unauthorized:
        'El motor de dictado rechazó este servidor. Avisa a quien administra el servidor.',
      busy: 'El motor de dictado está ocupado. Inténtalo de nuevo en un rato.',
      rejected: 'El motor de dictado no pudo usar esta grabación. Vuelve a grabar.',
      failed: 'El motor de dictado falló mientras escuchaba. Inténtalo de nuevo.',
      timeout: 'La grabación tardó demasiado en convertirse en texto. Prueba con una más corta.',
      cut: 'La conexión con el motor de dictado se cortó. Inténtalo de nuevo.',
      malformed: 'El motor de dictado respondió sin texto. Inténtalo de nuevo.',
      cancelled: 'La grabación no se convirtió en texto: se canceló.',
    },
    call: {
      badTicket:
        'No se pudo abrir esta llamada: su enlace ya se usó o es demasiado antiguo. Vuelve a llamar.',
      badAudio:
        'No se pudo usar la grabación: envía un archivo WAV, mono de 16 bits, de {{seconds}} segundos como máximo.',
      nothingHeard: 'No se oyó nada. Vuelve a hablar.',
      waitForAnswer: 'Espera la respuesta antes de decir más.',
      tooLong: 'text: como máximo {{count}} caracteres.',
    },
    payments: {
      notSetUp: 'Los pagos no están configurados en este servidor.',
      free: 'Este paquete es gratis: no hay nada que pagar.',
      planHeld: 'Ya tienes un plan. Cancélalo en tu página de suscripción antes de elegir otro.',
      checkoutStarting: 'Tu otro pago todavía se está iniciando. Inténtalo de nuevo en un momento.',
      noPlan: 'No tienes ningún plan que cambiar.',
      unreachable:
        'No se puede contactar con el servicio de pago ahora. Inténtalo de nuevo en un minuto.',
    },
    notFound: {
      mate: 'No se encontró el mate.',
      message: 'No se encontró el mensaje.',
      persona: 'No se encontró la persona.',
      picture: 'No se encontró la imagen.',
      creator: 'No se encontró el creador.',
      room: 'No se encontró el chat.',
      package: 'No se encontró el paquete.',
      checkout: 'No se encontró el pago.',
      memory: 'No se encontró el recuerdo.',
      export: 'No se encontró la descarga.',
    },
  },
  pictures: {
    failures: {
      unreachable: 'No se pudo contactar con el motor de imágenes.',
      unauthorized:
        'El motor de imágenes rechazó este servidor. Avisa a quien administra el servidor.',
      busy: 'El motor de imágenes está ocupado. Vuelve a intentarlo dentro de un rato.',
      refused: 'El motor de imágenes se negó a dibujar esto. Prueba a describirlo de otra forma.',
      rejected: 'El motor de imágenes no puede dibujar con este modelo o tamaño.',
      failed: 'El motor de imágenes falló mientras dibujaba.',
      timeout: 'La imagen tardó demasiado en dibujarse.',
      cut: 'Se cortó la conexión con el motor de imágenes mientras dibujaba.',
      malformed: 'El motor de imágenes respondió sin una imagen.',
      cancelled: 'La imagen se canceló.',
      notStored:
        'La imagen se dibujó, pero no se pudo guardar. Vuelve a intentarlo dentro de un rato.',
    },
  },
  mails: {
    verification: {
      subject: 'Confirma tu dirección de correo para Mates',
      welcome: '¡Te damos la bienvenida a Mates!',
      open: 'Confirma tu dirección de correo abriendo este enlace:',
      button: 'Confirma tu dirección de correo',
      works: 'El enlace funciona durante 24 horas. Si no te registraste, ignora este correo.',
    },
    alreadyRegistered: {
      subject: 'Alguien intentó registrarse en Mates con tu dirección',
      tried:
        'Alguien, quizá tú, intentó crear una cuenta de Mates con esta dirección de correo, que ya tiene una.',
      ifYou:
        'Si fuiste tú, inicia sesión en {{url}}/ en vez de registrarte (con Google o Discord si te registraste así).',
      ifNot: 'Si no fuiste tú, ignora este correo: no se ha cambiado nada.',
    },
    resetLink: {
      subject: 'Restablece tu contraseña de Mates',
      asked: 'Alguien, esperamos que tú, pidió restablecer la contraseña de tu cuenta de Mates.',
      open: 'Elige una contraseña nueva aquí:',
      button: 'Elige una contraseña nueva',
      works:
        'El enlace funciona una sola vez, durante una hora. Si no lo pediste, ignora este correo: tu contraseña sigue igual.',
    },
    passwordRemoved: {
      subject: 'Iniciaste sesión en Mates con {{provider}}',
      signedIn: 'Acabas de iniciar sesión en tu cuenta de Mates con {{provider}}.',
      removed:
        'Para que la cuenta siga siendo tuya, se eliminó su contraseña y se cerró la sesión en todos los demás dispositivos: puede que no fueras tú quien eligió esa contraseña. Tus mates, chats y monedas siguen ahí.',
      again:
        'Para volver a iniciar sesión con contraseña, elige «¿Olvidaste tu contraseña?» en la página de inicio de sesión y crea una nueva.',
    },
    dataReady: {
      subject: 'Tus datos de Mates están listos',
      ready:
        'Tus datos de Mates están listos para descargar: cada chat, tus mates, imágenes, clips de voz y todo lo demás, en un solo archivo zip.',
      download: 'Descárgalos desde tu perfil, con la sesión iniciada en esta cuenta:',
      downloadLink: 'Descárgalos desde tu perfil',
      downloadHtml: '{{link}}, con la sesión iniciada en esta cuenta.',
      until:
        'Puedes descargarlos hasta el {{date}}; después se eliminan. Si no los pediste, cambia tu contraseña: alguien inició sesión como tú.',
    },
    accountDeleted: {
      subject: 'Tu cuenta de Mates se ha eliminado',
      deleted:
        'Tu cuenta de Mates se ha eliminado, como pediste: tus chats, personas, imágenes, clips de voz y mates privados ya no están, y se cerró la sesión en todos los dispositivos.',
      again:
        'Puedes volver a registrarte con esta dirección cuando quieras, como un miembro nuevo.',
    },
  },
  ledger: {
    reasons: {
      welcome: 'regalo de bienvenida',
      chat: 'respuesta',
      inspiration: 'ideas',
      characterDraft: 'borrador de personaje',
      inspirationNothingUsable: 'ideas: devuelto, no salió nada útil',
      characterDraftNothingUsable: 'borrador de personaje: devuelto, no salió nada útil',
      picture: 'imagen',
      voice: 'voz',
      refundReplyAbandoned: 'devolución: respuesta abandonada',
      refundStopped: 'devolución: respuesta detenida',
      refundNoReply: 'devolución: no hubo respuesta',
      refundRoomDeleted: 'devolución: chat eliminado',
      refundPictureFailed: 'devolución: la imagen falló',
      refundPictureCancelled: 'devolución: imagen cancelada',
      refundPictureNotQueued: 'devolución: la imagen no se pudo empezar',
      refundVoiceFailed: 'devolución: la voz falló',
      refundVoiceUnplayed: 'devolución: voz descartada sin reproducir',
      operatorGift: 'regalo de quien administra el servidor',
      package: '{{name}}',
      planFirstMonth: 'plan {{name}}, primer mes',
      planFirstYear: 'plan {{name}}, primer año',
      planRenewed: 'plan {{name}} renovado',
      paymentRefunded: 'pago reembolsado: {{what}}',
      paymentRefundedSpent: 'pago reembolsado: {{what}} (ya habías gastado {{spent}})',
      chargebackLost: 'contracargo: {{what}}',
      chargebackLostSpent: 'contracargo: {{what}} (ya habías gastado {{spent}})',
    },
    parts: {
      plan: 'plan {{name}}',
      chats_one: '{{count}} chat',
      chats_other: '{{count}} chats',
      goldCoins_one: '{{count}} moneda de oro',
      goldCoins_other: '{{count}} monedas de oro',
      both: '{{chats}} y {{goldCoins}}',
    },
  },
};
