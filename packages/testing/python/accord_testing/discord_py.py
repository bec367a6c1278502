"""Points discord.py (2.x) at an Accord through its own class attributes: the API base of its Route, the CDN base of
Asset and the Gateway URL a plain Client connects to. Process-wide, as those attributes are."""


def point_discord_py(accord) -> None:
    import yarl
    import discord
    from discord.gateway import DiscordWebSocket
    from discord.http import Route

    Route.BASE = accord.api  # REST, interaction callbacks and webhooks alike
    discord.Asset.BASE = accord.url
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(accord.gateway_url + '/')
