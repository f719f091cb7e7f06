/** One e-mail, always with both an HTML and a plain-text body. */
export type MailMessage = {
  to: string;
  subject: string;
  html: string;
  text: string;
  /** What it is for (`sign-in`, ...), for the outbox and the logs. */
  kind: string;
  /** The links a reader is meant to click, logged by the sandbox so a developer can follow them. */
  links: string[];
};

export interface MailPort {
  send(message: MailMessage): Promise<void>;
}
