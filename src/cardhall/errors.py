"""The errors of the Game API: all are ``ValueError`` subclasses whose message names the game, the
input and why it was refused."""


class CardhallError(ValueError):
    """Base of every error cardhall raises for bad input."""


class InvalidCardError(CardhallError):
    """A card text or int that is not a card."""


class InvalidOptionError(CardhallError):
    """A game string, option name or option value that the game does not accept."""


class InvalidActionError(CardhallError):
    """An action text or int that is not an action of the game at all."""


class IllegalActionError(InvalidActionError):
    """An action of the game that this seat may not take in this state."""


class InvalidRecordError(CardhallError):
    """A game record that cannot be replayed."""
