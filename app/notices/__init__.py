"""Notices outside the page (issue 29): what happened in a room, told to a seat whose
page is closed, by Web Push or an Apprise URL. A platform part that names no game: the
facts come from the game-neutral `Game` interface (`to_act`, `is_over`, the optional
`invitations` hook) and from the table (a seat out of time, a rematch).

- `addresses`  which URLs and endpoints a seat may give (kinds, resolved addresses)
- `targets`    the stored subscriptions (one per seat and device)
- `vapid`      the server's Web Push keys, made once and kept in the data folder
- `texts`      a notice's words in the seat's language
- `sender`     the queue: grouping, retries with backoff, dead subscriptions removed
- `service`    the facts of a room turned into notices (`Notices`)
"""
