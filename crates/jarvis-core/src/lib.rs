//! The Jarvis brain. No GUI, no audio: hosts drive it through [`Brain`].

pub mod agent;
pub mod announce;
pub mod budget;
pub mod config;
pub mod digest;
pub mod events;
pub mod evolve;
pub mod hub;
pub mod llm;
pub mod models;
pub mod notify;
pub mod policy;
pub mod sandbox;
pub mod schedule;
pub mod secrets;
pub mod services;
pub mod skills;
pub mod store;
pub mod tasks;
pub mod tools;
pub mod undo;

pub use agent::{Brain, BrainError, BrainOptions, Overrides, SkillListing};
