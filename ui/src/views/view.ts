export interface View {
  readonly name: string;
  readonly title: string;
  readonly el: HTMLElement;
  /** Called each time the view is shown; `params` may select an entry. */
  enter(params?: Record<string, unknown>): void | Promise<void>;
  /** Events, for views that follow the brain live. */
  onEvent?(env: import("../protocol").EventEnvelope): void;
}
