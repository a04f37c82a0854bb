"""E-mail through the operator's mail server (the standard library's smtplib, in a thread: the notifier's
event loop keeps reading facts while a mail server is slow)."""

from __future__ import annotations

import asyncio
import hashlib
import smtplib
import ssl
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import formatdate

from server.notify.compose import Message

TIMEOUT = 20.0
"""Seconds one exchange with the mail server may take."""


class Refused(Exception):
    """The mail server did not take the message; `permanent` when it says it never will (5xx)."""

    def __init__(self, why: str, permanent: bool = False) -> None:
        super().__init__(why)
        self.permanent = permanent


@dataclass(frozen=True)
class MailServer:
    """Where e-mails go: host, port, TLS (`starttls`, `tls`, `off`), the From address, an optional login."""

    host: str
    port: int
    tls: str
    sender: str
    user: str | None = None
    password: str | None = None

    def __repr__(self) -> str:   # never the password
        return f"MailServer({self.host}:{self.port}, tls={self.tls}, sender={self.sender!r})"


def message_id(message: Message, sender: str) -> str:
    """The e-mail's Message-ID, derived from the message's idempotency key: the same for every try."""
    return f"<{hashlib.sha256(message.key.encode()).hexdigest()[:32]}@{sender.rpartition('@')[2]}>"


def email_of(message: Message, to: str, sender: str) -> EmailMessage:
    """The message as an e-mail: plain text, its Message-ID derived from its idempotency key (a mail
    client shows a message sent twice once), and the one-click unsubscribe of RFC 8058."""
    mail = EmailMessage()
    mail["From"] = f"Tongiaki Online <{sender}>"
    mail["To"] = to
    mail["Subject"] = message.subject
    mail["Date"] = formatdate(usegmt=True)
    mail["Message-ID"] = message_id(message, sender)
    mail["Content-Language"] = message.lang
    mail["Auto-Submitted"] = "auto-generated"
    if message.unsub:
        mail["List-Unsubscribe"] = f"<{message.unsub}>"
        mail["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    mail.set_content(message.body)
    return mail


class Mailer:
    """Sends e-mails through one mail server."""

    def __init__(self, server: MailServer) -> None:
        self.server = server

    def __repr__(self) -> str:
        return f"Mailer({self.server!r})"

    def message_id(self, message: Message) -> str:
        return message_id(message, self.server.sender)

    async def send(self, message: Message, to: str) -> None:
        """Sends the message to `to`; Refused when the server (or the way to it) would not take it."""
        await asyncio.to_thread(self._send, email_of(message, to, self.server.sender))

    def _send(self, mail: EmailMessage) -> None:
        s = self.server
        try:
            if s.tls == "tls":
                smtp: smtplib.SMTP = smtplib.SMTP_SSL(s.host, s.port, timeout=TIMEOUT,
                                                      context=ssl.create_default_context())
            else:
                smtp = smtplib.SMTP(s.host, s.port, timeout=TIMEOUT)
            with smtp:
                if s.tls == "starttls":
                    smtp.starttls(context=ssl.create_default_context())
                if s.user and s.password:
                    smtp.login(s.user, s.password)
                smtp.send_message(mail)
        except smtplib.SMTPRecipientsRefused as e:
            codes = [code for code, _ in e.recipients.values()]
            raise Refused(f"recipient refused: {codes}", permanent=all(c >= 500 for c in codes)) from None
        except smtplib.SMTPResponseException as e:
            raise Refused(f"{e.smtp_code} {e.smtp_error!r}", permanent=e.smtp_code >= 500) from None
        except (smtplib.SMTPException, OSError) as e:   # unreachable, disconnected, TLS: try again later
            raise Refused(repr(e)) from None
