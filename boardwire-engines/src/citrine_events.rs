//! [`UciBridge::event`]: the driver's events passed on in one call, as
//! [`Mover::event`](crate::dxp_bridge::Mover::event) does for DXP.

use novag_citrine::session::Event;

use crate::citrine_bridge::UciBridge;

impl UciBridge {
    /// Passes a driver event on: `GameStarted` is
    /// [`game_started`](UciBridge::game_started), `TakenBack`
    /// [`taken_back`](UciBridge::taken_back), `GameEnded`
    /// [`game_ended`](UciBridge::game_ended); other events change nothing.
    pub fn event(&mut self, e: &Event) {
        match e {
            Event::GameStarted(g) => self.game_started(g),
            Event::TakenBack(_) => self.taken_back(),
            Event::GameEnded(_) => self.game_ended(),
            _ => {}
        }
    }
}
