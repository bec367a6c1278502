// Authorize's answer (code or error) goes back to the page that opened the consent screen, which finishes it.
window.opener?.game?.client.completeAuthorize(window.location.href);
window.close();
