// Reflect: what Jarvis can do now and what it cannot, what it did, and a
// five-axis radar where every axis is a measured rate with its samples.
import type { Api, RadarAxis, ReflectReport } from "../api";
import { errorText } from "../api";
import { clear, h } from "../dom";
import type { View } from "./view";

const SVG = "http://www.w3.org/2000/svg";

function svg<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string | number>, text?: string): SVGElementTagNameMap[K] {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  if (text !== undefined) el.textContent = text;
  return el;
}

/** The radar: one labelled axis per rate, rings at quarters, the scores as a polygon. */
export function radar(axes: RadarAxis[]): SVGSVGElement {
  const [cx, cy, r] = [200, 190, 130];
  const at = (i: number, k: number) => {
    const a = -Math.PI / 2 + (i * 2 * Math.PI) / Math.max(axes.length, 1);
    return [cx + r * k * Math.cos(a), cy + r * k * Math.sin(a)];
  };
  const root = svg("svg", { viewBox: "0 0 400 380", role: "img", "aria-label": `Capability radar: ${axes.map((a) => `${a.axis} ${Math.round(a.score * 100)} %`).join(", ")}`, class: "radar" });
  for (const ring of [0.25, 0.5, 0.75, 1]) {
    root.append(svg("polygon", { points: axes.map((_, i) => at(i, ring).join(",")).join(" "), class: "ring" }));
  }
  axes.forEach((a, i) => {
    const [x, y] = at(i, 1);
    const [lx, ly] = at(i, 1.2);
    root.append(svg("line", { x1: cx, y1: cy, x2: x, y2: y, class: "spoke" }));
    root.append(svg("text", { x: lx, y: ly, "text-anchor": "middle", class: "axis-label", "data-axis": a.axis }, `${a.axis} ${Math.round(a.score * 100)}%`));
  });
  root.append(svg("polygon", { points: axes.map((a, i) => at(i, a.score).join(",")).join(" "), class: "score" }));
  return root;
}

export class ReflectView implements View {
  readonly name = "reflect";
  readonly title = "Reflect";
  readonly el: HTMLElement;
  private body: HTMLElement;

  constructor(private api: Api, private toast: (m: string) => void) {
    this.body = h("div", { class: "reflect-body" });
    this.el = h(
      "section",
      // Focusable: it scrolls, and holds nothing else to Tab to.
      { class: "view reflect", "aria-label": "Reflect", tabindex: "0" },
      h("header", { class: "view-head" }, h("h1", {}, "Reflect"), h("p", { class: "muted" }, "What Jarvis can and cannot do now, and what it did: each axis a measured rate, with its count.")),
      this.body,
    );
  }

  async enter() {
    try {
      this.render(await this.api.reflect());
    } catch (e) {
      this.toast(errorText(e));
    }
  }

  private render(r: ReflectReport) {
    clear(this.body);
    const list = (title: string, items: string[], cls: string) =>
      h("section", { class: "reflect-list", "aria-label": title }, h("h2", {}, title), h("ul", { class: cls }, ...items.map((i) => h("li", {}, i))));
    const rows = r.radar.map((a) =>
      h("tr", { "data-axis": a.axis }, h("th", { scope: "row" }, a.axis), h("td", {}, `${Math.round(a.score * 100)} %`), h("td", {}, String(a.samples)), h("td", {}, a.metric)),
    );
    this.body.append(
      h(
        "div",
        { class: "reflect-top" },
        radar(r.radar),
        h(
          "table",
          { class: "radar-table" },
          h("caption", {}, "The radar's figures"),
          h("thead", {}, h("tr", {}, ...["Axis", "Score", "Samples", "Metric"].map((t) => h("th", { scope: "col" }, t)))),
          h("tbody", {}, ...rows),
        ),
      ),
      list("Can now", r.can, "ok"),
      list("Cannot now", r.cannot, "warn"),
      list("Did", r.did, "muted"),
    );
  }
}
