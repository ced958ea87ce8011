//! Players and their sessions.

use crate::model::{Player, PlayerId, Session, TokenHash, UnixMillis};
use crate::{Store, StoreError, on_backend};

impl Store {
    /// Signs up a player with a fresh id.
    pub async fn create_player(&self, display_name: &str) -> Result<Player, StoreError> {
        let player = Player {
            id: PlayerId::new(),
            display_name: display_name.to_string(),
            created: UnixMillis::now(),
        };
        on_backend!(self, pool => {
            sqlx::query("INSERT INTO players (id, display_name, created_ms) VALUES ($1, $2, $3)")
                .bind(player.id.as_str())
                .bind(&player.display_name)
                .bind(player.created.0)
                .execute(pool)
                .await?
                .rows_affected()
        });
        Ok(player)
    }

    /// One player.
    pub async fn player(&self, id: &PlayerId) -> Result<Player, StoreError> {
        let row: Option<(String, i64)> = on_backend!(self, pool => {
            sqlx::query_as("SELECT display_name, created_ms FROM players WHERE id = $1")
                .bind(id.as_str())
                .fetch_optional(pool)
                .await?
        });
        let (display_name, created) = row.ok_or_else(|| StoreError::NotFound {
            what: "player",
            id: id.to_string(),
        })?;
        Ok(Player {
            id: id.clone(),
            display_name,
            created: UnixMillis(created),
        })
    }

    /// Changes a player's display name.
    pub async fn rename_player(&self, id: &PlayerId, display_name: &str) -> Result<(), StoreError> {
        let done = on_backend!(self, pool => {
            sqlx::query("UPDATE players SET display_name = $1 WHERE id = $2")
                .bind(display_name)
                .bind(id.as_str())
                .execute(pool)
                .await?
                .rows_affected()
        });
        if done == 0 {
            return Err(StoreError::NotFound {
                what: "player",
                id: id.to_string(),
            });
        }
        Ok(())
    }

    /// Stores a session for `player`, known by its token's hash.
    pub async fn create_session(
        &self,
        token: &TokenHash,
        player: &PlayerId,
        expires: UnixMillis,
    ) -> Result<(), StoreError> {
        let result = on_backend!(self, pool => {
            sqlx::query(
                "INSERT INTO sessions (token_hash, player_id, created_ms, expires_ms) \
                 VALUES ($1, $2, $3, $4)",
            )
            .bind(&token.0[..])
            .bind(player.as_str())
            .bind(UnixMillis::now().0)
            .bind(expires.0)
            .execute(pool)
            .await
            .map(|r| r.rows_affected())
        });
        match result {
            Ok(_) => Ok(()),
            Err(e)
                if e.as_database_error()
                    .is_some_and(|d| d.is_foreign_key_violation()) =>
            {
                Err(StoreError::NotFound {
                    what: "player",
                    id: player.to_string(),
                })
            }
            Err(e) => Err(e.into()),
        }
    }

    /// The session a token hash opens, if it exists and has not expired at `now`.
    pub async fn session(
        &self,
        token: &TokenHash,
        now: UnixMillis,
    ) -> Result<Option<Session>, StoreError> {
        let row: Option<(String, i64)> = on_backend!(self, pool => {
            sqlx::query_as(
                "SELECT player_id, expires_ms FROM sessions WHERE token_hash = $1 AND expires_ms > $2",
            )
            .bind(&token.0[..])
            .bind(now.0)
            .fetch_optional(pool)
            .await?
        });
        Ok(row.map(|(player, expires)| Session {
            player: PlayerId::stored(player),
            expires: UnixMillis(expires),
        }))
    }

    /// Ends a session (sign-out). Ending one that does not exist is not an error.
    pub async fn delete_session(&self, token: &TokenHash) -> Result<(), StoreError> {
        on_backend!(self, pool => {
            sqlx::query("DELETE FROM sessions WHERE token_hash = $1")
                .bind(&token.0[..])
                .execute(pool)
                .await?
                .rows_affected()
        });
        Ok(())
    }

    /// Deletes every session expired at `now`; returns how many.
    pub async fn purge_expired_sessions(&self, now: UnixMillis) -> Result<u64, StoreError> {
        Ok(on_backend!(self, pool => {
            sqlx::query("DELETE FROM sessions WHERE expires_ms <= $1")
                .bind(now.0)
                .execute(pool)
                .await?
                .rows_affected()
        }))
    }
}
