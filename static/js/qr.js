// A link as a QR code: the server draws it (POST /api/qr, segno, no outside service);
// the image records the link it encodes in data-link. No code: a note to copy the link.
import * as API from "./api.js";
import { t } from "./i18n.js";
import { h } from "./util.js";

export async function showQr(img, link) {
  try {
    img.src = await API.qrDataUrl(link);
    img.dataset.link = link;
  } catch {
    img.replaceWith(h("p", { class: "muted small", text: t("No QR code: copy the link instead.") }));
  }
}
