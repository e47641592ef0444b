"""Settings of the live sources: read from the environment when loaded, masked in any
JSON dump but the one serve() hands its own worker processes."""

import pytest

from threefold import load_settings
from threefold.errors import SettingsError
from threefold.settings import REVEAL_SECRETS, Settings


def test_secrets_come_from_the_environment_and_stay_masked(monkeypatch):
    monkeypatch.setenv("THREEFOLD_SLACK__SIGNING_SECRET", "s3cret-signing")
    monkeypatch.setenv("THREEFOLD_DRIVE__TOKEN", "ya29.s3cret")
    settings = load_settings()
    assert settings.slack.signing_secret is not None
    assert settings.slack.signing_secret.get_secret_value() == "s3cret-signing"
    dumped = settings.model_dump_json()
    assert "s3cret" not in dumped and "s3cret" not in repr(settings)
    handed = Settings.model_validate_json(settings.model_dump_json(context={REVEAL_SECRETS: True}))
    assert handed.slack.signing_secret.get_secret_value() == "s3cret-signing"
    assert handed.drive.token.get_secret_value() == "ya29.s3cret"


@pytest.mark.parametrize(
    ("overrides", "key"),
    [
        ({"slack": {"api_base": "slack.com/api"}}, "slack.api_base"),
        ({"slack": {"replay_window_seconds": 0}}, "slack.replay_window_seconds"),
        ({"drive": {"folders": [{"folder_id": "F1", "stream": "no stream"}]}}, "drive.folders"),
        ({"drive": {"max_file_bytes": 10}}, "drive.max_file_bytes"),
    ],
)
def test_bad_live_source_settings_name_their_key(overrides, key):
    with pytest.raises(SettingsError, match=key.replace(".", r"\.")):
        load_settings(**overrides)
