import { useId, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { GROUP_LIMITS, type GroupTurnOrder, type MateSummary } from '@mates/api-client';
import {
  Avatar,
  Button,
  Dialog,
  Flex,
  IconButton,
  CloseIcon,
  Stack,
  Text,
  TextArea,
  TextField,
} from '@mates/ui';
import { useServices } from '../../lib/services-context';
import { roomKeys } from '../../lib/query-keys';
import { routeTo } from '../../lib/paths';
import { MatePicker } from './mate-picker';
import { TurnOrderSelect } from './turn-order-select';
import { GroupFailure } from './group-failure';

/** Props of {@link CreateGroupDialog}. */
export interface CreateGroupDialogProps {
  open: boolean;
  onClose: () => void;
  /** Mates chosen from the start (the mate whose page or chat it was opened from). */
  initial?: readonly MateSummary[];
}

/**
 * A new group chat: 2 to 6 mates in the order they sit (chosen, moved up, taken out), its name,
 * scenario and who speaks after the person; what each reply costs is said before it exists.
 * Once made, the group's chat opens.
 */
export function CreateGroupDialog({ open, onClose, initial = [] }: CreateGroupDialogProps) {
  const { t } = useTranslation();
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => !next && onClose()}
      title={t('group.createTitle')}
      description={t('group.createText', {
        min: GROUP_LIMITS.minMembers,
        max: GROUP_LIMITS.maxMembers,
      })}
      closeLabel={t('auth.close')}
      width={560}
    >
      {open && <CreateGroupForm initial={initial} onClose={onClose} />}
    </Dialog>
  );
}

function CreateGroupForm({
  initial,
  onClose,
}: {
  initial: readonly MateSummary[];
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { client } = useServices();
  const queries = useQueryClient();
  const navigate = useNavigate();
  const [chosen, setChosen] = useState<MateSummary[]>([...initial]);
  const [name, setName] = useState('');
  const [scenario, setScenario] = useState('');
  const [turnOrder, setTurnOrder] = useState<GroupTurnOrder>('natural');
  const [tried, setTried] = useState(false);
  const chosenId = useId();
  const create = useMutation({
    mutationFn: () =>
      client.room.createGroup({
        mateIds: chosen.map((mate) => mate.mateId),
        ...(name.trim() ? { name: name.trim() } : {}),
        ...(scenario.trim() ? { scenario: scenario.trim() } : {}),
        turnOrder,
      }),
    onSuccess: (room) => {
      void queries.invalidateQueries({ queryKey: roomKeys.lists() });
      onClose();
      navigate(routeTo('/chat-detail', { roomId: room.roomId }));
    },
  });
  const full = chosen.length >= GROUP_LIMITS.maxMembers;
  const tooFew = chosen.length < GROUP_LIMITS.minMembers;
  const toggle = (mate: MateSummary) =>
    setChosen((now) =>
      now.some((one) => one.mateId === mate.mateId)
        ? now.filter((one) => one.mateId !== mate.mateId)
        : now.length < GROUP_LIMITS.maxMembers
          ? [...now, mate]
          : now,
    );
  const moveUp = (index: number) =>
    setChosen((now) => {
      const next = [...now];
      [next[index - 1], next[index]] = [next[index]!, next[index - 1]!];
      return next;
    });
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        // Pressed again while the first is on its way: one group, not two.
        if (create.isPending) return;
        setTried(true);
        if (!tooFew) create.mutate();
      }}
    >
      <Stack gap={4}>
        <Stack gap={2}>
          <Text weight="medium" id={chosenId} aria-live="polite">
            {t('group.chosen', { count: chosen.length, max: GROUP_LIMITS.maxMembers })}
          </Text>
          <Stack as="ol" gap={1} aria-labelledby={chosenId}>
            {chosen.map((mate, index) => (
              <Flex as="li" key={mate.mateId} gap={2} align="center">
                <Avatar src={mate.avatar} name={mate.name} size="small" decorative />
                <Text style={{ flex: 1 }}>{mate.name}</Text>
                {index > 0 && (
                  <Button
                    type="button"
                    size="small"
                    variant="ghost"
                    aria-label={t('group.moveUp', { name: mate.name })}
                    onClick={() => moveUp(index)}
                  >
                    ↑
                  </Button>
                )}
                <IconButton
                  type="button"
                  size="small"
                  label={t('group.unchoose', { name: mate.name })}
                  icon={<CloseIcon />}
                  onClick={() => toggle(mate)}
                />
              </Flex>
            ))}
          </Stack>
          {full && (
            <Text tone="muted" size={2}>
              {t('group.full', { max: GROUP_LIMITS.maxMembers })}
            </Text>
          )}
          {tried && tooFew && (
            <Text tone="danger" size={2} role="alert">
              {t('group.tooFew', { min: GROUP_LIMITS.minMembers })}
            </Text>
          )}
        </Stack>
        <MatePicker chosen={chosen} onToggle={toggle} full={full} />
        <TextField
          label={t('group.name')}
          placeholder={t('group.namePlaceholder')}
          value={name}
          maxLength={GROUP_LIMITS.nameMax}
          onChange={(event) => setName(event.target.value)}
        />
        <TextArea
          label={t('group.scenario')}
          placeholder={t('group.scenarioPlaceholder')}
          value={scenario}
          maxLength={GROUP_LIMITS.scenarioMax}
          rows={3}
          onChange={(event) => setScenario(event.target.value)}
        />
        <TurnOrderSelect value={turnOrder} onValueChange={setTurnOrder} />
        <Text tone="muted" size={2}>
          {t('group.cost', { max: GROUP_LIMITS.repliesPerTurn })}
        </Text>
        <GroupFailure error={create.error} />
        <Flex justify="end" gap={2}>
          <Button type="button" variant="ghost" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" aria-busy={create.isPending}>
            {t('group.create')}
          </Button>
        </Flex>
      </Stack>
    </form>
  );
}
