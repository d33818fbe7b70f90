export interface View {
  readonly name: string;
  readonly title: string;
  readonly el: HTMLElement;
  /** Called each time the view is shown; `params` may select an entry. */
  enter(params?: Record<string, unknown>): void | Promise<void>;
}
