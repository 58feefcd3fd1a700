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
    internal: 'No se pudo terminar la respuesta. Se conserva lo que llegó.',
    shutdown:
      'El servidor se está reiniciando. Se conserva lo que llegó; vuelve a enviarlo en un momento.',
  },
  room: {
    readOnly: 'Este mate ya no está disponible. Puedes leer este chat, pero no continuarlo.',
  },
};
