import { createServer, type Server, type Socket } from "node:net";

/** A message as the mail server received it: the envelope and the raw message text. */
export type ReceivedMail = { from: string; to: string[]; data: string };

/**
 * A mail server on 127.0.0.1 that speaks enough SMTP (RFC 5321: EHLO, MAIL, RCPT, DATA, RSET, NOOP, QUIT) for
 * nodemailer to deliver to it, and keeps what it receives. It offers no STARTTLS and no authentication, like a
 * local relay. Stands in for the shop's mail server in tests, so mail really goes over SMTP.
 */
export async function startSmtpServer(): Promise<{ port: number; received: ReceivedMail[]; close: () => Promise<void> }> {
  const received: ReceivedMail[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.setEncoding("utf8");
    let envelope: ReceivedMail = { from: "", to: [], data: "" };
    let inData = false;
    let buffer = "";
    const reply = (line: string) => socket.write(`${line}\r\n`);
    reply("220 localhost ESMTP test server");
    socket.on("data", (chunk: string) => {
      buffer += chunk;
      for (;;) {
        if (inData) {
          const end = buffer.indexOf("\r\n.\r\n");
          if (end === -1) return;
          envelope.data = buffer.slice(0, end).replace(/^\.\./gm, ".");
          buffer = buffer.slice(end + 5);
          inData = false;
          received.push(envelope);
          envelope = { from: "", to: [], data: "" };
          reply("250 2.0.0 Ok: queued");
          continue;
        }
        const newline = buffer.indexOf("\r\n");
        if (newline === -1) return;
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === "EHLO") reply("250-localhost\r\n250 8BITMIME");
        else if (verb === "HELO") reply("250 localhost");
        else if (verb === "MAIL") {
          envelope.from = /<([^>]*)>/.exec(line)?.[1] ?? "";
          reply("250 2.1.0 Ok");
        } else if (verb === "RCPT") {
          envelope.to.push(/<([^>]*)>/.exec(line)?.[1] ?? "");
          reply("250 2.1.5 Ok");
        } else if (verb === "DATA") {
          inData = true;
          reply("354 End data with <CR><LF>.<CR><LF>");
        } else if (verb === "RSET") {
          envelope = { from: "", to: [], data: "" };
          reply("250 2.0.0 Ok");
        } else if (verb === "NOOP") reply("250 2.0.0 Ok");
        else if (verb === "QUIT") {
          reply("221 2.0.0 Bye");
          socket.end();
        } else reply("502 5.5.2 Command not recognized");
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    port,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
