import type { LegalTexts } from './types';

/** The legal and help pages in Spanish. */
export const es: LegalTexts = {
  privacy: {
    title: 'Aviso de privacidad',
    updated: 'Última actualización: 26 de noviembre de 2026',
    lead: 'Mates es software de código abierto. Este aviso explica qué guarda de ti una instancia de Mates, para qué y qué puedes hacer al respecto. Quien gestiona la instancia que usas es responsable de ella; si gestionas la tuya, tus datos nunca salen de tu máquina.',
    sections: [
      {
        heading: 'Qué guardamos',
        paragraphs: [
          'Tu cuenta: la dirección de correo con la que te registraste, una contraseña guardada solo como hash Argon2id, tu apodo, tu idioma y tus preferencias (etiquetas, filtro de género, si se muestran mates para adultos). Si inicias sesión con Google o Discord, guardamos el identificador de la cuenta y la dirección que esos servicios confirman, y con Discord tu nombre visible y tu imagen de Discord.',
          'Lo que ven los demás: tu apodo y tu imagen junto a lo que publicas (tus mates, tus reseñas), y los moderadores los ven en tus denuncias. Una cuenta nueva recibe un apodo generado, nunca hecho de tu dirección de correo ni de tu nombre de Google; puedes cambiarlo en tu perfil. Tu dirección de correo no se muestra nunca a nadie.',
          'Lo que creas: tus chats y sus mensajes, personas, favoritos, los creadores que sigues, reseñas, denuncias y mensajes al soporte.',
          'Sesiones: un token aleatorio por dispositivo, guardado solo como hash, que caduca tras 30 días sin uso.',
        ],
      },
      {
        heading: 'Para qué lo guardamos',
        paragraphs: [
          'Para prestar el servicio que pediste: iniciar tu sesión, volver a mostrarte tus conversaciones y que un mate recuerde lo que se dijo. No vendemos tus datos ni usamos tus chats para enviarte publicidad.',
        ],
      },
      {
        heading: 'Modelos de lenguaje',
        paragraphs: [
          'Por defecto, las respuestas las escribe un modelo que se ejecuta en el mismo servidor, y tus mensajes no van a ningún otro sitio. Una instancia puede configurarse para usar un modelo alojado; entonces los mensajes de un chat, la ficha del mate y tu persona se envían a ese proveedor para escribir cada respuesta. Quien gestiona la instancia debe nombrar a ese proveedor.',
        ],
      },
      {
        heading: 'Durante cuánto tiempo',
        paragraphs: [
          'Hasta que lo borres. Borrar un chat borra sus mensajes al instante. Cerrar tu cuenta borra todo lo vinculado a ella en 30 días, salvo lo que la ley nos obligue a conservar (como los registros de pago).',
        ],
      },
      {
        heading: 'Tus derechos',
        paragraphs: [
          'Puedes ver, corregir, exportar o borrar tus datos, y oponerte a su uso. Escríbenos desde la página de soporte; respondemos en 30 días. También puedes reclamar ante tu autoridad de protección de datos.',
        ],
      },
    ],
  },
  terms: {
    title: 'Condiciones de uso',
    updated: 'Última actualización: 23 de noviembre de 2026',
    lead: 'Estas condiciones rigen tu uso de Mates. Al crear una cuenta las aceptas.',
    sections: [
      {
        heading: 'Quién puede usar Mates',
        paragraphs: [
          'Debes tener al menos 18 años, o la mayoría de edad de tu país si es mayor. Una persona, una cuenta; no compartas tu contraseña.',
        ],
      },
      {
        heading: 'Los mates son ficción',
        paragraphs: [
          'Cada mate es un personaje de IA. Lo que dice lo genera un modelo de lenguaje: puede equivocarse, contradecirse o sorprender, y nunca es consejo profesional, médico, jurídico ni financiero. No confíes en un mate en una emergencia: llama al número de emergencias de tu país.',
        ],
      },
      {
        heading: 'Lo que creas',
        paragraphs: [
          'Conservas los derechos sobre los mates, personas y mensajes que escribes. Concedes a quien gestiona esta instancia la licencia necesaria para guardarlos y mostrártelos y, en el caso de los mates que publiques, mostrarlos a otros. Garantizas que tienes derecho a lo que subes, incluidas fichas de personajes e imágenes.',
        ],
      },
      {
        heading: 'Normas',
        paragraphs: [
          'Respeta las normas de la comunidad. Podemos retirar contenido y suspender cuentas que las incumplan, y te diremos por qué.',
        ],
      },
      {
        heading: 'Chats y monedas',
        paragraphs: [
          'Las cuentas nuevas reciben una asignación de bienvenida de chats y monedas de oro. Los paquetes añaden más. Una respuesta que falla antes de que llegue texto no gasta un chat.',
        ],
      },
      {
        heading: 'El software',
        paragraphs: [
          'Mates se ofrece tal cual, bajo su licencia de código abierto, sin garantía. Nada en estas condiciones limita los derechos que te reconoce la ley de tu país y que no pueden limitarse por contrato.',
        ],
      },
    ],
  },
  guidelines: {
    title: 'Normas de la comunidad',
    updated: 'Última actualización: 23 de noviembre de 2026',
    lead: 'Mates es un lugar para historias y compañía. Estas normas lo mantienen así para todos.',
    sections: [
      {
        heading: 'Nunca permitido',
        paragraphs: [
          'Cualquier contenido sexual con menores, o con personajes presentados como menores, diga lo que diga la ficción. Esos mates se retiran y la cuenta se cierra.',
          'Personas reales en contenido sexual o humillante, la difusión de datos personales y el contenido que amenace, acose o incite a la violencia o al odio contra personas por lo que son.',
        ],
      },
      {
        heading: 'Contenido para adultos',
        paragraphs: [
          'Los mates para adultos deben marcarse como no aptos para el trabajo. Solo se muestran a quienes eligieron verlos en sus ajustes.',
        ],
      },
      {
        heading: 'Respeta a los creadores',
        paragraphs: [
          'No subas personajes que no tengas derecho a compartir, y menciona al creador original cuando adaptes la ficha de otra persona.',
        ],
      },
      {
        heading: 'Reseñas',
        paragraphs: [
          'Valora el mate, no a quien lo hizo. Nada de spam ni publicidad, ni reseñas de tus propios mates.',
        ],
      },
      {
        heading: 'Denuncias',
        paragraphs: [
          'Si algo incumple estas normas, denúncialo desde la página del mate o escribe al soporte. Revisamos cada denuncia.',
        ],
      },
    ],
  },
  faq: {
    title: 'Preguntas frecuentes',
    updated: '',
    lead: 'Respuestas breves a lo que más se pregunta.',
    sections: [
      {
        heading: '¿Mates es gratis?',
        paragraphs: [
          'Cada cuenta nueva recibe una asignación de bienvenida de chats. Los paquetes añaden más chats y monedas de oro. Si gestionas Mates tú mismo, es gratis e ilimitado.',
        ],
      },
      {
        heading: '¿Quién escribe las respuestas?',
        paragraphs: [
          'Un modelo de lenguaje que interpreta al personaje descrito en la ficha del mate. Por defecto se ejecuta en el mismo servidor que Mates.',
        ],
      },
      {
        heading: 'Una respuesta se detuvo a medias. ¿Se ha perdido?',
        paragraphs: [
          'No. Lo que llegó se guarda y se marca como cortado; puedes regenerarla o seguir hablando. Una respuesta que falla antes de que llegue texto no gasta un chat.',
        ],
      },
      {
        heading: '¿Qué es una persona?',
        paragraphs: [
          'Quién eres en un chat: un nombre y unas líneas que el mate sabe de ti. Haz una predeterminada en tu área personal y se unirá a cada chat nuevo.',
        ],
      },
      {
        heading: '¿Puedo cambiar lo que escribí?',
        paragraphs: [
          'Sí. Cada mensaje tiene botones para editar y eliminar, y la última respuesta se puede regenerar.',
        ],
      },
      {
        heading: '¿En qué idioma responden los mates?',
        paragraphs: [
          'En el idioma que elijas en la cabecera o en tu perfil; toda la aplicación cambia con él.',
        ],
      },
      {
        heading: '¿Cómo borro mi cuenta?',
        paragraphs: [
          'En tu perfil, «Eliminar mi cuenta…» muestra lo que se borra, pide tu contraseña (o volver a iniciar sesión con Google o Discord) y la borra al momento. Si quieres conservar tus datos, descárgalos allí antes.',
        ],
      },
    ],
  },
};
